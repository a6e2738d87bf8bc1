/** Renders HTML help text from our own content tables (seeded and edited by operators). */
export function HtmlBlock({ html }: { html: string }) {
  return <div className="cc-html" dangerouslySetInnerHTML={{ __html: html }} />;
}
