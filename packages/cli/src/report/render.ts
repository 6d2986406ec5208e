// Markdown and HTML renderings of the report sections. Deterministic: the same record and
// verification give the same text (no clock, no randomness), so a report can be pinned by digest.
import { html, md } from './escape.js';
import type { ReportModel } from './model.js';
import { reportSections, type Block, type ReportOptions } from './sections.js';

export type ReportFormat = 'md' | 'html';

export function renderReport(
  model: ReportModel,
  format: ReportFormat,
  options: ReportOptions = {},
): string {
  const sections = reportSections(model, options);
  const title = `Run report: ${model.summary.run.name ?? model.summary.run.run_id ?? 'unnamed run'}`;
  return format === 'md' ? renderMarkdown(title, sections) : renderHtml(title, sections);
}

function renderMarkdown(title: string, sections: ReturnType<typeof reportSections>): string {
  const out = [`# ${md(title)}`, ''];
  for (const section of sections) {
    out.push(`## ${md(section.title)}`, '');
    for (const block of section.blocks) out.push(...markdownBlock(block), '');
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

function markdownBlock(block: Block): string[] {
  switch (block.kind) {
    case 'facts':
      return block.rows.map(([k, v]) => `- **${md(k)}:** ${md(v)}`);
    case 'list':
      return block.items.map((item) => `- ${md(item)}`);
    case 'text':
      return [md(block.text)];
    case 'table':
      return [
        `| ${block.head.map(md).join(' | ')} |`,
        `| ${block.head.map(() => '---').join(' | ')} |`,
        ...block.rows.map((row) => `| ${row.map(md).join(' | ')} |`),
      ];
  }
}

function renderHtml(title: string, sections: ReturnType<typeof reportSections>): string {
  const body = sections
    .map(
      (section) =>
        `<section>\n<h2>${html(section.title)}</h2>\n${section.blocks.map(htmlBlock).join('\n')}\n</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${html(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } dt { font-weight: 600; } dd { margin: 0 0 .4rem 0; overflow-wrap: anywhere; }
</style>
</head>
<body>
<h1>${html(title)}</h1>
${body}
</body>
</html>
`;
}

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'facts':
      return `<dl>\n${block.rows.map(([k, v]) => `<dt>${html(k)}</dt><dd>${html(v)}</dd>`).join('\n')}\n</dl>`;
    case 'list':
      return `<ul>\n${block.items.map((i) => `<li>${html(i)}</li>`).join('\n')}\n</ul>`;
    case 'text':
      return `<p>${html(block.text)}</p>`;
    case 'table':
      return `<table>\n<thead><tr>${block.head.map((h) => `<th>${html(h)}</th>`).join('')}</tr></thead>\n<tbody>\n${block.rows
        .map((row) => `<tr>${row.map((c) => `<td>${html(c)}</td>`).join('')}</tr>`)
        .join('\n')}\n</tbody>\n</table>`;
  }
}
