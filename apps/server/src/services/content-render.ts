import { Marked } from 'marked';

/** One Markdown renderer (GitHub-flavoured, synchronous) for the public pages and the preview. */
const markdown = new Marked({ gfm: true, breaks: false, async: false });

/**
 * HTML of an authored text: Markdown is rendered (raw HTML inside it passes through, as in any
 * Markdown), HTML is returned as written.
 */
export function renderBody(text: string, format: string | undefined): string {
  return format === 'markdown' ? (markdown.parse(text) as string) : text;
}
