// The widget manager cleans the widget descriptions written in HTML with a
// call to the sanitize-html package, sanitize(html, {allowedTags,
// allowedAttributes}). The build resolves that package to this module, which
// answers the same call with DOMPurify: the browser parses the HTML, and
// DOMPurify drops scripts, event handlers, links to script URLs and every tag
// outside the manager's list (keeping the text inside). The manager's lists
// name attributes per tag ('*' for every tag, "aria-*" for a family), which a
// hook enforces, since DOMPurify's own list is one for all tags.
import DOMPurify from 'dompurify';

let allowedAttributes = {};

function allowed(list, name) {
  return list.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry));
}

DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
  const tag = node.nodeName.toLowerCase();
  const lists = [allowedAttributes['*'] || [], allowedAttributes[tag] || []];
  if (!lists.some((list) => allowed(list, data.attrName))) data.keepAttr = false;
});

export default function sanitize(html, options = {}) {
  allowedAttributes = options.allowedAttributes || {};
  const names = Object.values(allowedAttributes).flat().filter((name) => !name.endsWith('*'));
  return DOMPurify.sanitize(String(html), {
    ALLOWED_TAGS: options.allowedTags || [],
    ALLOWED_ATTR: names,
  });
}
