/**
 * A router link in antd's link look. Login and register sit outside the layout, where nothing styles a
 * bare <a>: a plain <Link> shows the browser's underlined blue there. Plain clicks navigate inside the
 * app; modified clicks (new tab, new window) are left to the browser, which has the real href. Styled
 * from antd's tokens instead of Typography.Link, which would be a chunk of its own on the login page.
 */
import { useNavigate } from '@umijs/max';
import { theme } from 'antd';
import type React from 'react';
import { useState } from 'react';

export default function AuthLink({
  to,
  inText = false,
  children,
}: {
  to: string;
  /** Inside running text: underlined, as its colour alone does not stand out from the text around it. */
  inText?: boolean;
  children: React.ReactNode;
}) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const [hover, setHover] = useState(false);
  const onClick = (e: React.MouseEvent<HTMLElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    // The portal is served at / (.umirc.ts `base`), so the route is the href.
    <a
      href={to}
      onClick={onClick}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      style={{
        color: hover ? token.colorLinkHover : token.colorLink,
        textDecoration: inText ? 'underline' : 'none',
        transition: `color ${token.motionDurationSlow}`,
      }}
    >
      {children}
    </a>
  );
}
