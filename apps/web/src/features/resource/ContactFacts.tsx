import { Descriptions, Image, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { CONTACT } from '../../config/contact';

/** Region-dependent contact points (docs/product/overview.md#footer-and-contact) from src/config/contact.ts. */
export function ContactFacts({ china }: { china: boolean }) {
  const { t } = useTranslation('resource');
  if (china) {
    return (
      <Descriptions column={1} size="small" data-testid="contact-facts-cn">
        <Descriptions.Item label={t('contact.phone')}>{CONTACT.cn.phone}</Descriptions.Item>
        <Descriptions.Item label={t('contact.email')}>
          <a href={`mailto:${CONTACT.cn.email}`}>{CONTACT.cn.email}</a>
        </Descriptions.Item>
        <Descriptions.Item label={t('contact.address')}>{CONTACT.cn.address}</Descriptions.Item>
        <Descriptions.Item label={t('contact.qr')}>
          <Space>
            {CONTACT.cn.qrCodes.map((q) => (
              <figure key={q.src} style={{ margin: 0, textAlign: 'center' }}>
                <Image src={q.src} width={120} alt={t(q.labelKey)} preview={false} />
                <figcaption>{t(q.labelKey)}</figcaption>
              </figure>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
    );
  }
  return (
    <Descriptions column={1} size="small" data-testid="contact-facts-global">
      <Descriptions.Item label={t('contact.phoneGermany')}>{CONTACT.global.phoneGermany}</Descriptions.Item>
      <Descriptions.Item label={t('contact.phoneApac')}>{CONTACT.global.phoneApac}</Descriptions.Item>
      <Descriptions.Item label={t('contact.email')}>
        <a href={`mailto:${CONTACT.global.email}`}>{CONTACT.global.email}</a>
      </Descriptions.Item>
      <Descriptions.Item label={t('contact.social')}>
        <Space wrap>
          {CONTACT.global.social.map((s) => (
            <a key={s.name} href={s.url} target="_blank" rel="noreferrer">
              {s.name}
            </a>
          ))}
        </Space>
      </Descriptions.Item>
    </Descriptions>
  );
}
