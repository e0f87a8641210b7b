import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError } from './errors';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XINCLUDE_NS = 'http://www.w3.org/2001/XInclude';

/** Elements that run code or pull in another document (librsvg renders XInclude and foreignObject's HTML). */
const FORBIDDEN_ELEMENTS = new Set(['script', 'handler', 'foreignobject']);

const URL_FUNCTION = /url\s*\(\s*["']?\s*([^"')\s]*)/gi;
/** Other CSS functions that take an address, even as a bare string. */
const OTHER_ADDRESS_FUNCTION = /(?:^|[^a-z0-9_-])(?:src|image|image-set|-webkit-image-set)\(/i;

const unsafe = () => new MediaContentError(UPLOAD_TEXTS.unsafeSvg);
const notSvg = () => new MediaContentError(UPLOAD_TEXTS.typeMismatch('svg', null));

/** Anything may point only inside the file: every url() to '#...', no @import. */
function checkUrls(value: string): void {
  if (/@import/i.test(value)) throw unsafe();
  for (const match of value.matchAll(URL_FUNCTION)) {
    if (!match[1]!.startsWith('#')) throw unsafe();
  }
}

/**
 * What the renderer reads as CSS (a <style> sheet, a style or presentation attribute) also has no
 * other address function and no backslash: CSS escapes can spell `url(` or `@import` in a form
 * no pattern sees.
 */
function checkCss(css: string): void {
  checkUrls(css);
  if (css.includes('\\') || OTHER_ADDRESS_FUNCTION.test(css)) throw unsafe();
}

function checkAttribute(attr: SaxesAttributeNS): void {
  const local = attr.local.toLowerCase();
  const value = attr.value;
  // xmlns:xi="http://www.w3.org/2001/XInclude" is refused with the elements it would bring
  if (value.toLowerCase().includes('xinclude')) throw unsafe();
  if (local.startsWith('on')) throw unsafe();
  if (local === 'href' && !value.startsWith('#')) throw unsafe();
  // <set>/<animate> could give an href or a handler its value later
  if (local === 'attributename') {
    const target = value.trim().replace(/^[^:]*:/, '').toLowerCase();
    if (target === 'href' || target.startsWith('on')) throw unsafe();
  }
  // SVG's own attributes have no namespace; those of other vocabularies (inkscape:, sodipodi:,
  // rdf:) are never read as CSS by the renderer, and may hold labels and file names.
  if (attr.uri === '') checkCss(value);
  else checkUrls(value);
}

/**
 * An SVG must be a plain drawing. It is parsed as XML (strict, with namespaces) and refused when
 * it is not well-formed or its root is not <svg> in the SVG namespace, or (as unsafe) when it has
 * a DOCTYPE (entity declarations: billion laughs, external entities), a processing instruction
 * (xml-stylesheet), an encoding other than UTF-8, XInclude, <script>, <foreignObject>, event
 * handler attributes, or any reference outside the file: an href not starting with '#', a CSS
 * url() to anything but '#...', @import. What passes is then drawn to PNG by librsvg.
 */
export function checkSvg(text: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let sawRoot = false;
  let styleDepth = 0;
  let styleText = '';

  parser.on('xmldecl', (decl) => {
    if (decl.encoding !== undefined && decl.encoding.toLowerCase() !== 'utf-8') throw unsafe();
  });
  parser.on('doctype', () => {
    throw unsafe();
  });
  parser.on('processinginstruction', () => {
    throw unsafe();
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (!sawRoot) {
      if (tag.uri !== SVG_NS || tag.local !== 'svg') throw notSvg();
      sawRoot = true;
    }
    const local = tag.local.toLowerCase();
    if (tag.uri === XINCLUDE_NS || FORBIDDEN_ELEMENTS.has(local)) throw unsafe();
    for (const attr of Object.values(tag.attributes)) checkAttribute(attr);
    if (local === 'style' || styleDepth > 0) styleDepth += 1;
  });
  parser.on('closetag', () => {
    if (styleDepth === 0) return;
    styleDepth -= 1;
    if (styleDepth === 0) {
      checkCss(styleText);
      styleText = '';
    }
  });
  const collectStyle = (chunk: string) => {
    if (styleDepth > 0) styleText += chunk;
  };
  parser.on('text', collectStyle);
  parser.on('cdata', collectStyle);

  try {
    parser.write(text.replace(/^\uFEFF/, '')).close();
  } catch (error) {
    if (error instanceof MediaContentError) throw error;
    // not well-formed: unbalanced tags, an undeclared prefix or entity, text outside the root
    throw notSvg();
  }
  if (!sawRoot) throw notSvg();
}
