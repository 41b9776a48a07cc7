/**
 * The header title as a link to /home; shorter below 1400 px or on mobile. Being in every layout page's
 * header, it also keeps antd's controls named in Chinese there (components/controlNames.ts).
 */
import { FULL_TITLE, SHORT_TITLE, SHORT_TITLE_BELOW } from '../../config/defaultSettings';
import { Link } from '@umijs/max';
import { Grid, theme } from 'antd';
import React, { useEffect, useState } from 'react';
import { useChineseControlNames } from './controlNames';

export function headerTitle(width: number, isMobile: boolean): string {
  return isMobile || width < SHORT_TITLE_BELOW ? SHORT_TITLE : FULL_TITLE;
}

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1920 : window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

export default function HeaderTitle({ logo, isMobile }: { logo?: React.ReactNode; isMobile?: boolean }) {
  useChineseControlNames();
  const width = useWindowWidth();
  const screens = Grid.useBreakpoint();
  const { token } = theme.useToken();
  const mobile = Boolean(isMobile) || screens.md === false;
  return (
    <Link to="/home" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      {logo}
      {/* Styled here: on a phone the title sits outside ProLayout's logo box that styles it on desktop. */}
      <h1
        style={{
          margin: 0,
          color: token.colorTextHeading,
          fontSize: 18,
          fontWeight: 600,
          lineHeight: '32px',
          whiteSpace: 'nowrap',
        }}
      >
        {headerTitle(width, mobile)}
      </h1>
    </Link>
  );
}
