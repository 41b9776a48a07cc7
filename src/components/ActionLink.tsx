/**
 * An action in a table row that looks like a link: a real button (antd's link button), so Tab reaches
 * it and Enter or Space presses it. An <a> without href, which this replaces, is neither.
 */
import { Button, type ButtonProps } from 'antd';

export default function ActionLink({ style, ...props }: Omit<ButtonProps, 'type' | 'size'>) {
  return <Button type="link" size="small" style={{ padding: 0, ...style }} {...props} />;
}
