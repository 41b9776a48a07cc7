/**
 * antd's List.Item.Meta without its heading: antd makes every entry's title an <h4>, which puts a
 * fourth-level heading under the page's first (screen readers list it as a section; WCAG tools flag
 * the skipped levels). Same classes, so it looks the same.
 */
import React from 'react';

export default function ListEntry({
  avatar,
  title,
  description,
}: {
  avatar?: React.ReactNode;
  title: React.ReactNode;
  description?: React.ReactNode;
}) {
  return (
    <div className="ant-list-item-meta">
      {avatar && <div className="ant-list-item-meta-avatar">{avatar}</div>}
      <div className="ant-list-item-meta-content">
        <div className="ant-list-item-meta-title">{title}</div>
        {description && <div className="ant-list-item-meta-description">{description}</div>}
      </div>
    </div>
  );
}
