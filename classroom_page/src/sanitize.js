// Stands in for the sanitize-html package, which the widget manager uses only
// to clean widget descriptions written in HTML (about a quarter of the
// bundle's size with its HTML and CSS parsers). This one lets the browser
// parse the HTML into an inert template and keeps only the tags and
// attributes the manager allows; the text inside other tags is kept, the
// content of script, style, textarea and option elements is not, and links
// and images may only point to web, mail or telephone addresses.
const DROPPED_WITH_CONTENT = new Set(['SCRIPT', 'STYLE', 'TEXTAREA', 'OPTION', 'NOSCRIPT', 'TEMPLATE']);
const SAFE_URL = /^(?:(?:https?|ftp|mailto|tel):|[^:]*$)/i;

function allowedAttribute(tag, name, options) {
  const lists = [(options.allowedAttributes || {})['*'] || [], (options.allowedAttributes || {})[tag] || []];
  return lists.some((list) => list.some((allowed) => (allowed.endsWith('*')
    ? name.startsWith(allowed.slice(0, -1)) : name === allowed)));
}

function clean(node, options) {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE) {
      child.remove();
      continue;
    }
    const tag = child.tagName.toLowerCase();
    if (DROPPED_WITH_CONTENT.has(child.tagName)) {
      child.remove();
      continue;
    }
    clean(child, options);
    if (!(options.allowedTags || []).includes(tag)) {
      child.replaceWith(...child.childNodes);
      continue;
    }
    for (const attribute of [...child.attributes]) {
      const name = attribute.name.toLowerCase();
      const keep = allowedAttribute(tag, name, options)
        && ((name !== 'href' && name !== 'src') || SAFE_URL.test(attribute.value.trim()));
      if (!keep) child.removeAttribute(attribute.name);
    }
  }
}

export default function sanitize(html, options = {}) {
  const template = document.createElement('template');
  template.innerHTML = String(html);
  clean(template.content, options);
  return template.innerHTML;
}
