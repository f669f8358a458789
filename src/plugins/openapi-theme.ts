/**
 * What makes Swagger UI's page at /api/docs pass axe (docs/api.md#the-documentation-page): its
 * configuration first, then a stylesheet and a small script @fastify/swagger-ui serves beside it
 * (its `theme` option; same origin, so the page's CSP allows them).
 */

/**
 * - BaseLayout: no top bar, whose logo has no alt text and whose "explore" field has no label
 *   (and which would let a visitor load any other document into the page);
 * - deepLinking off: on, each operation's summary button holds a link (a control inside a control);
 * - syntaxHighlight off: its examples are scrollable boxes styled inline, which the CSP refuses
 *   (a console error) and a keyboard cannot scroll.
 */
export const DOCS_UI_CONFIG = { layout: 'BaseLayout', deepLinking: false, syntaxHighlight: false } as const;

/** Colours with at least 4.5:1 contrast where the stock ones have less, and examples that wrap instead of scrolling. */
const CSS = `
.swagger-ui { color: #1f2328; }
.swagger-ui .opblock .opblock-summary-method { color: #fff; text-shadow: none; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5b9e; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17683f; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4b00; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #136a61; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b3261e; }
.swagger-ui .opblock.opblock-head .opblock-summary-method,
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #5b3a8c; }
.swagger-ui .info .title small, .swagger-ui .info .title small pre { background: #4a5059; color: #fff; }
.swagger-ui .info .title small.version-stamp { background: #2f6f2f; }
.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui a.nostyle, .swagger-ui .markdown a, .swagger-ui .renderedMarkdown a { color: #1a56a8; }
.swagger-ui .opblock .opblock-summary-path, .swagger-ui .opblock .opblock-summary-description,
.swagger-ui .opblock-tag, .swagger-ui .opblock-tag small, .swagger-ui .parameter__name, .swagger-ui .parameter__type,
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated, .swagger-ui .parameter__extension, .swagger-ui .prop-format,
.swagger-ui .response-col_status, .swagger-ui .response-col_links, .swagger-ui .response-col_description, .swagger-ui .col_header,
.swagger-ui .tab li, .swagger-ui .tab li button.tablinks, .swagger-ui .model, .swagger-ui .model-title, .swagger-ui .model .property,
.swagger-ui .model .property.primitive, .swagger-ui .prop-type, .swagger-ui .opblock-description-wrapper p, .swagger-ui .opblock-external-docs-wrapper p,
.swagger-ui .opblock-title_normal p, .swagger-ui .responses-inner h4, .swagger-ui .responses-inner h5, .swagger-ui table thead tr th,
.swagger-ui table thead tr td, .swagger-ui .parameters-col_description, .swagger-ui .markdown p, .swagger-ui .renderedMarkdown p,
.swagger-ui label, .swagger-ui .servers-title, .swagger-ui .btn, .swagger-ui .model-toggle::after, .swagger-ui .model-hint,
.swagger-ui .response-control-media-type__title, .swagger-ui .opblock-section-header h4, .swagger-ui .opblock-section-header label,
.swagger-ui section.models h4, .swagger-ui section.models h5, .swagger-ui .model-box, .swagger-ui .json-schema-2020-12__title,
.swagger-ui .json-schema-2020-12-keyword__name, .swagger-ui .json-schema-2020-12-expand-deep-button, .swagger-ui .json-schema-2020-12-keyword__value, .swagger-ui .json-schema-2020-12__attribute {
  color: #1f2328;
}
.swagger-ui .parameter__name.required::after, .swagger-ui .parameter__name.required span { color: #b3261e; }
.swagger-ui .opblock-tag, .swagger-ui .opblock .opblock-summary-description { opacity: 1; }
.swagger-ui .btn.authorize { color: #17683f; border-color: #17683f; }
.swagger-ui .btn.authorize svg { fill: #17683f; }
.swagger-ui .btn.execute { background: #1d5b9e; border-color: #1d5b9e; color: #fff; }
.swagger-ui .btn.cancel { color: #b3261e; border-color: #b3261e; }
.swagger-ui pre, .swagger-ui .highlight-code pre, .swagger-ui .microlight { white-space: pre-wrap; word-break: break-word; overflow: visible; max-height: none; }
.swagger-ui .opblock-body pre.microlight { background: #2b2f36; color: #fff; }
`;

/**
 * Names for the controls Swagger UI leaves unnamed, given as they appear (it renders as the
 * reader opens operations): icon buttons, the request body box, parameter fields and lists,
 * images without alt text; and a tab stop on each scrolling example.
 */
const JS = `(() => {
  const named = (el) => (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title') || el.textContent || '').trim() !== '';
  const NAMES = [
    ['.copy-to-clipboard button', 'Copy to clipboard'],
    ['button.opblock-control-arrow', 'Show or hide the operation'],
    ['button.expand-operation', 'Show or hide the operation'],
    ['button.expand-methods', 'Show or hide the operations of this tag'],
    ['button.model-box-control', 'Show or hide the schema'],
    ['button.authorization__btn', 'Authorize this operation'],
    ['button.unlocked', 'Authorize this operation'],
    ['button.locked', 'Authorized'],
  ];
  const fix = () => {
    for (const [selector, name] of NAMES) for (const el of document.querySelectorAll(selector)) if (!named(el)) el.setAttribute('aria-label', name);
    for (const el of document.querySelectorAll('button')) if (!named(el)) el.setAttribute('aria-label', (el.className || 'button').replace(/[-_]+/g, ' '));
    // A name must contain the words shown ("Authorize", named "Apply credentials" in the dialog).
    for (const el of document.querySelectorAll('button[aria-label]')) {
      const shown = el.textContent.trim();
      const label = el.getAttribute('aria-label');
      if (shown && !label.toLowerCase().includes(shown.toLowerCase())) el.setAttribute('aria-label', shown + ' (' + label.toLowerCase() + ')');
    }
    for (const el of document.querySelectorAll('textarea.body-param__text')) if (!el.getAttribute('aria-label')) el.setAttribute('aria-label', 'Request body');
    for (const el of document.querySelectorAll('.parameters-col_description input, .parameters-col_description select')) {
      if (el.labels && el.labels.length > 0) continue;
      const row = el.closest('tr');
      const name = row && row.querySelector('.parameter__name');
      if (name && !el.getAttribute('aria-label')) el.setAttribute('aria-label', name.textContent.replace('*', '').trim());
    }
    for (const el of document.querySelectorAll('select')) {
      if (el.getAttribute('aria-label') || (el.labels && [...el.labels].some((label) => label.textContent.trim() !== ''))) continue;
      const title = el.closest('.response-control-media-type, .content-type-wrapper, .body-param-content-type');
      el.setAttribute('aria-label', title ? 'Media type' : 'Choose a value');
    }
    for (const el of document.querySelectorAll('img:not([alt])')) el.setAttribute('alt', '');
    // Examples scroll when long: reachable by keyboard, named for a screen reader.
    for (const el of document.querySelectorAll('pre.microlight:not([tabindex])')) {
      el.setAttribute('tabindex', '0');
      el.setAttribute('aria-label', 'Example');
    }
  };
  new MutationObserver(fix).observe(document.documentElement, { childList: true, subtree: true });
  fix();
})();
`;

export const DOCS_THEME = {
  title: 'Deskbook API',
  css: [{ filename: 'deskbook.css', content: CSS }],
  js: [{ filename: 'deskbook.js', content: JS }],
};
