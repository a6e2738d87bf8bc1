import { useState } from 'react';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { authoredKinds } from '@cellcloud/contracts/admin-content';
import { AdminNotifyPanel } from './AdminNotifyPanel';
import { AdminVideosPanel } from './AdminVideosPanel';
import { ContentEditor } from './ContentEditor';

const SECTIONS = [...authoredKinds, 'videos', 'notify'] as const;
type Section = (typeof SECTIONS)[number];

/** Content authoring: FAQ, documentation, guidebook, update log, tutorial videos, system notifications. */
export function AdminContentTab() {
  const { t } = useTranslation('content');
  const [section, setSection] = useState<Section>('faq');
  return (
    <>
      {/* scrolls on its own on a phone instead of widening the page */}
      <div style={{ overflowX: 'auto', maxWidth: '100%', marginBottom: 16 }}>
        <Segmented<Section>
          data-testid="content-sections"
          value={section}
          onChange={setSection}
          options={SECTIONS.map((s) => ({ value: s, label: t(`sections.${s}`) }))}
        />
      </div>
      {section === 'videos' ? (
        <AdminVideosPanel />
      ) : section === 'notify' ? (
        <AdminNotifyPanel />
      ) : (
        <ContentEditor key={section} kind={section} />
      )}
    </>
  );
}
