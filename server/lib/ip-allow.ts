/**
 * IP allow-lists (`127.0.0.1,10.0.0.0/8,::1`): parsed once, checked per request. IPv4 addresses seen
 * as IPv4-mapped IPv6 (`::ffff:10.1.2.3`, a server listening on `::`) are checked as IPv4.
 */
import net from 'node:net';

export interface IpAllowList {
  /** The entries as given, for messages. */
  readonly entries: string[];
  allows(address: string | undefined): boolean;
}

/** Throws with the offending entry when one is neither an IP address nor a CIDR block. */
export function parseIpAllowList(text: string): IpAllowList {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const version = net.isIP(address);
    if (!version || extra !== undefined) throw new Error(`not an IP address or CIDR block: ${entry}`);
    const type = version === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d{1,3}$/.test(prefix) || bits > (version === 6 ? 128 : 32))
      throw new Error(`not an IP address or CIDR block: ${entry}`);
    list.addSubnet(address, bits, type);
  }
  return {
    entries,
    allows(address) {
      if (!address || entries.length === 0) return false;
      const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
      const version = net.isIP(plain);
      if (!version) return false;
      return list.check(plain, version === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
