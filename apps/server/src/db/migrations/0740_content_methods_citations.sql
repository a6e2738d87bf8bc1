-- The guide pages seeded by 0530 cited sections of a methods document that is not part of
-- CellCloud ("METHODS §…"). The methods are described in the app's Methods report and in
-- docs/methods/*.md; the citations are removed from the text users read (both languages).
-- The same pages gave the wizard's cluster resolution as 0.8; the one default of the contract
-- (docs/defaults.md) is 0.5, which is what the wizard now submits.
UPDATE content_entries SET
  body_en = regexp_replace(
    regexp_replace(
      regexp_replace(body_en, 'the pipeline of METHODS §1\.4–1\.8:', 'the pipeline:', 'g'),
      '\. METHODS §[0-9.]+\.', '.', 'g'),
    ' \(METHODS §[0-9.–]+\)', '', 'g'),
  body_zh = regexp_replace(
    regexp_replace(
      regexp_replace(
        regexp_replace(body_zh, '设置 METHODS §1\.4–1\.8 所述流程：', '设置如下流程：', 'g'),
        '。见 METHODS §[0-9.]+。', '。', 'g'),
      '（METHODS §[0-9.]+；', '（', 'g'),
    '（METHODS §[0-9.–]+）', '', 'g'),
  updated_at = now()
WHERE body_en LIKE '%METHODS §%' OR body_zh LIKE '%METHODS §%';

UPDATE content_entries SET
  body_en = replace(body_en, 'Cluster resolution</td><td>0.8 (range 0.01–5)', 'Cluster resolution</td><td>0.5 (range 0.01–5)'),
  body_zh = replace(body_zh, '聚类分辨率</td><td>0.8（范围 0.01–5）', '聚类分辨率</td><td>0.5（范围 0.01–5）'),
  updated_at = now()
WHERE body_en LIKE '%Cluster resolution</td><td>0.8%' OR body_zh LIKE '%聚类分辨率</td><td>0.8%';
