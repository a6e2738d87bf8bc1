import { useAccountInfo } from '../../api/account';
import { useContentList } from '../../api/content';

/** Documentation or guidebook entries for the user's documentation type switch (CN / global). */
export function useDocs(type: 'documentation' | 'guidebook') {
  const info = useAccountInfo();
  return useContentList({ type, docType: info.data?.switches.docType ?? 'global' });
}
