import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../api/queryClient';

export const theme = { token: { colorPrimary: '#1677ff', borderRadius: 6 } };

/** Query client, Ant Design locale (follows the i18n language) and antd's App context. */
export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const zh = i18n.language === 'zh-CN';
  dayjs.locale(zh ? 'zh-cn' : 'en');
  // Texts the server renders per reader (upload failure reasons, job and task messages,
  // notifications) are fetched again in the new language (issue 22 item 2).
  useEffect(() => {
    const refetch = () => void queryClient.invalidateQueries();
    i18n.on('languageChanged', refetch);
    return () => i18n.off('languageChanged', refetch);
  }, [i18n]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={zh ? zhCN : enUS} theme={theme}>
        <AntApp message={{ maxCount: 3 }}>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
