import { FloatButton, Popover } from 'antd';
import { WechatOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CONTACT } from '../config/contact';

/** The WeChat help button and its QR popover (loaded only in the China region). */
export default function WeChatPopover() {
  const { t } = useTranslation('common');
  return (
    <Popover
      placement="leftBottom"
      title={t('wechat.title')}
      content={
        <div style={{ textAlign: 'center' }}>
          <img src={CONTACT.cn.qrCodes[0].src} alt={t('wechat.title')} width={140} height={140} />
          <div>{t('wechat.body', { id: CONTACT.cn.wechatId })}</div>
        </div>
      }
    >
      <FloatButton
        icon={<WechatOutlined />}
        type="primary"
        style={{ insetInlineEnd: 24 }}
        data-testid="wechat-widget"
      />
    </Popover>
  );
}
