import { AutoComplete } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface GeneOption {
  index: number;
  symbol: string;
}

interface Props {
  symbols: string[];
  onPick: (g: GeneOption) => void;
  placeholder?: string;
  width?: number;
}

/** Gene search with autocomplete over genes.json (prefix matches first, then substrings; 20 shown). */
export function GeneSearch({ symbols, onPick, placeholder, width = 200 }: Props) {
  const { t } = useTranslation('explore');
  const [q, setQ] = useState('');
  const upper = useMemo(() => symbols.map((s) => s.toUpperCase()), [symbols]);
  const options = useMemo(() => {
    const needle = q.trim().toUpperCase();
    if (!needle) return [];
    const prefix: number[] = [];
    const inner: number[] = [];
    for (let i = 0; i < upper.length && prefix.length < 20; i += 1) {
      if (upper[i]!.startsWith(needle)) prefix.push(i);
      else if (inner.length < 20 && upper[i]!.includes(needle)) inner.push(i);
    }
    return [...prefix, ...inner].slice(0, 20).map((i) => ({ value: String(i), label: symbols[i]! }));
  }, [q, upper, symbols]);
  const pick = (value: string) => {
    const index = Number(value);
    onPick({ index, symbol: symbols[index]! });
    setQ('');
  };
  return (
    <AutoComplete
      data-testid="gene-search"
      style={{ width }}
      value={q}
      options={options}
      onSearch={setQ}
      onSelect={pick}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        const exact = upper.indexOf(q.trim().toUpperCase());
        if (exact >= 0) pick(String(exact));
      }}
      placeholder={placeholder ?? t('gene.searchPlaceholder')}
      notFoundContent={q.trim() ? t('gene.noMatch') : null}
    />
  );
}
