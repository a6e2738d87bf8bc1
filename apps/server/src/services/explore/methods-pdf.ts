import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { AppError } from '../../errors';
import { registerMessages } from '../../i18n/translate';
import type { Locale } from '@cellcloud/contracts';

/**
 * The methods report as a PDF (issue 21), rendered with pdfkit from the report's Markdown (the
 * subset methods-report.ts writes: `#`/`##`/`###` headings, paragraphs, `- ` and `1. ` items,
 * `code` spans). The text font is Noto Sans CJK (Debian fonts-noto-cjk), embedded as a subset so
 * Chinese prints in either language (sample and cluster names may be Chinese in an English
 * report); without it an English report falls back to the standard Helvetica (Latin only) and a
 * Chinese one is refused with a message naming the package.
 */
registerMessages({
  'en-US': {
    'methods.pdf.noCjkFont':
      'The PDF in Chinese needs a Chinese font on the server (Debian package fonts-noto-cjk). Download the Markdown, or ask the administrator to install the font.',
  },
  'zh-CN': {
    'methods.pdf.noCjkFont':
      '生成中文 PDF 需要服务器安装中文字体（Debian 软件包 fonts-noto-cjk）。请下载 Markdown，或请管理员安装该字体。',
  },
});

/** Noto Sans CJK collections (Debian, Fedora/Arch layouts) and their Simplified-Chinese faces. */
const CJK_DIRS = [
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/google-noto-cjk',
  '/usr/share/fonts/noto-cjk',
];
const CJK_FACES = {
  regular: ['NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular'],
  bold: ['NotoSansCJK-Bold.ttc', 'NotoSansCJKsc-Bold'],
} as const;

function cjkFonts(): { regular: [string, string]; bold: [string, string] } | undefined {
  const dirs = [process.env.CELLCLOUD_CJK_FONT_DIR, ...CJK_DIRS].filter((d): d is string => !!d);
  for (const dir of dirs) {
    const regular = `${dir}/${CJK_FACES.regular[0]}`;
    const bold = `${dir}/${CJK_FACES.bold[0]}`;
    if (existsSync(regular))
      return {
        regular: [regular, CJK_FACES.regular[1]],
        bold: existsSync(bold) ? [bold, CJK_FACES.bold[1]] : [regular, CJK_FACES.regular[1]],
      };
  }
  return undefined;
}

/** `code` spans (parameter names) in colour, in the text font: one font keeps one baseline. */
const CODE_COLOUR = '#1d4f91';

/** Inline runs of a Markdown line: `code` spans apart from the text around them. */
function runs(text: string): { text: string; code: boolean }[] {
  return text
    .split(/(`[^`]*`)/)
    .filter((s) => s !== '')
    .map((s) =>
      s.startsWith('`') && s.endsWith('`') ? { text: s.slice(1, -1), code: true } : { text: s, code: false },
    );
}

export async function methodsPdf(markdown: string, locale: Locale, title: string): Promise<Buffer> {
  const fonts = cjkFonts();
  if (!fonts && (locale === 'zh-CN' || /[\u2e80-\uffef]/.test(markdown)))
    throw new AppError('INTERNAL', {}, 'methods.pdf.noCjkFont');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 60, right: 60 },
    info: { Title: title, Creator: 'CellCloud', Producer: 'CellCloud (pdfkit)' },
    lang: locale,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (fonts) {
    doc.registerFont('text', ...fonts.regular);
    doc.registerFont('bold', ...fonts.bold);
  } else {
    doc.registerFont('text', 'Helvetica');
    doc.registerFont('bold', 'Helvetica-Bold');
  }
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const inline = (text: string, opts: PDFKit.Mixins.TextOptions = {}) => {
    const parts = runs(text);
    parts.forEach((p, i) =>
      doc
        .font('text')
        .fillColor(p.code ? CODE_COLOUR : 'black')
        .text(p.text, { ...opts, width: opts.width ?? width, continued: i < parts.length - 1 }),
    );
  };
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    const item = /^(- |\d+\. )(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      doc.moveDown(level === 1 ? 0 : 0.6);
      doc
        .font('bold')
        .fontSize([20, 15, 12][level - 1]!)
        .text(heading[2]!.replace(/`/g, ''), { width });
      doc.moveDown(0.3).fontSize(10);
    } else if (item) {
      // indented, the marker part of the item's first line (text extraction keeps them together)
      const marker = item[1] === '- ' ? '•  ' : item[1];
      doc.x = doc.page.margins.left + 12;
      doc.fontSize(10);
      inline(`${marker}${item[2]!}`, { width: width - 12 });
      doc.x = doc.page.margins.left;
    } else if (line.trim() === '') {
      doc.moveDown(0.4);
    } else {
      doc.fontSize(10);
      inline(line, { align: 'left' });
    }
  }
  doc.end();
  return done;
}
