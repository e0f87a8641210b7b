import { describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError } from './errors';
import { checkSvg } from './svg-check';

const NOT_SVG = UPLOAD_TEXTS.typeMismatch('svg', null);
const svg = (body: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"${attrs}>${body}</svg>`;

function refusal(text: string): string | null {
  try {
    checkSvg(text);
    return null;
  } catch (error) {
    if (!(error instanceof MediaContentError)) throw error;
    return error.message;
  }
}

describe('checkSvg', () => {
  it('accepts plain drawings: shapes, gradients, in-file references, styles, comments, editor metadata', () => {
    const drawings = [
      svg('<rect width="100" height="100" fill="#0a0"/><circle cx="50" cy="50" r="30" fill="#fff"/>'),
      `\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!-- made by hand -->\n${svg('<path d="M0 0L10 10"/>')}`,
      svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient><path id="p" d="M0 0h10"/></defs>' +
          '<rect width="10" height="10" fill="url(#g)" style="stroke: url( \'#g\' ); opacity: .5"/>' +
          '<use href="#p"/><use xlink:href="#p"/><text><textPath href="#p">a &amp; b &#169;</textPath></text>',
      ),
      svg('<style><![CDATA[ .a { fill: url("#g"); font-family: "Segoe UI", sans-serif } ]]></style><style>rect { fill: blue }</style>'),
      svg(
        '<sodipodi:namedview inkscape:current-layer="layer1" inkscape:export-filename="C:\\Users\\ava\\logo.png"/>' +
          '<metadata><rdf:RDF><cc:Work rdf:about=""><dc:title>Logo (image(1))</dc:title></cc:Work></rdf:RDF></metadata>',
        ' xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"' +
          ' xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:cc="http://creativecommons.org/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"',
      ),
      '<svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="10" height="10"><svg:rect width="10" height="10"/></svg:svg>',
    ];
    for (const drawing of drawings) expect(refusal(drawing), drawing).toBeNull();
  });

  it('refuses what is not an SVG document', () => {
    for (const text of [
      '',
      'just text',
      '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
      // <svg> outside the SVG namespace is not an SVG document
      '<svg width="10" height="10"><rect/></svg>',
      '<svg xmlns="http://example.com/not-svg"/>',
      svg('<rect>'),
      `${svg('')}<svg xmlns="http://www.w3.org/2000/svg"/>`,
      svg('&undefinedEntity;'),
      svg('<xi:include href="/etc/passwd"/>'),
    ]) {
      expect(refusal(text), text).toBe(NOT_SVG);
    }
  });

  it('refuses any DOCTYPE and every entity declaration', () => {
    const hostile = [
      `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${svg('')}`,
      `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${svg('<text>&xxe;</text>')}`,
      `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${svg('<text>&b;</text>')}`,
      `<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY % remote SYSTEM "http://evil.example/x.dtd"> %remote;]>${svg('')}`,
    ];
    for (const text of hostile) expect(refusal(text), text).toBe(UPLOAD_TEXTS.unsafeSvg);
  });

  it('refuses processing instructions and a declared encoding other than UTF-8', () => {
    for (const text of [
      `<?xml-stylesheet type="text/css" href="http://evil.example/a.css"?>${svg('')}`,
      `<?xml version="1.0"?><?php echo 1; ?>${svg('')}`,
      svg('<?xml-stylesheet href="x.css"?>'),
      `<?xml version="1.0" encoding="UTF-7"?>${svg('')}`,
      `<?xml version="1.0" encoding="ISO-8859-1"?>${svg('')}`,
    ]) {
      expect(refusal(text), text).toBe(UPLOAD_TEXTS.unsafeSvg);
    }
  });

  it('refuses XInclude, <script>, <foreignObject> and event handlers', () => {
    for (const text of [
      svg('<xi:include href="file:///etc/passwd" parse="text"/>', ' xmlns:xi="http://www.w3.org/2001/XInclude"'),
      svg('<include xmlns="http://www.w3.org/2001/XInclude" href="secret.txt" parse="text"/>'),
      svg('<g/>', ' xmlns:x="http://www.w3.org/2001/XInclude"'),
      svg('<script>alert(1)</script>'),
      svg('<script xlink:href="#s"/>'),
      svg('<SCRIPT>alert(1)</SCRIPT>'),
      svg('<foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="http://evil.example"/></foreignObject>'),
      svg('<handler type="application/ecmascript">alert(1)</handler>'),
      svg('<rect width="10" height="10"/>', ' onload="alert(1)"'),
      svg('<rect width="10" height="10" onClick="alert(1)"/>'),
      svg('<set attributeName="onmouseover" to="alert(1)"/>'),
      svg('<a href="#x"><animate attributeName="href" to="javascript:alert(1)"/></a>'),
      svg('<a href="#x"><set attributeName="xlink:href" to="http://evil.example"/></a>'),
    ]) {
      expect(refusal(text), text).toBe(UPLOAD_TEXTS.unsafeSvg);
    }
  });

  it('refuses every reference outside the file: href, url(), @import, in attributes and <style>', () => {
    for (const text of [
      svg('<image xlink:href="file:///etc/passwd" width="10" height="10"/>'),
      svg('<image href="http://evil.example/a.png"/>'),
      svg('<image href="data:image/svg+xml;base64,PHN2Zy8+"/>'),
      svg('<use href="other.svg#icon"/>'),
      svg('<use href=" #icon"/>'),
      svg('<a xlink:href="javascript:alert(1)"><rect/></a>'),
      svg('<feImage href="/etc/passwd"/>'),
      svg('<image x:href="http://evil.example/a.png"/>', ' xmlns:x="http://www.w3.org/1999/xlink"'),
      svg('<rect fill="url(http://evil.example/p.svg#g)"/>'),
      svg('<rect fill="URL( \'file:///etc/passwd\' )"/>'),
      svg('<rect style="fill: url(data:image/png;base64,AAAA)"/>'),
      svg('<rect style="fill: \\75 rl(http://evil.example/x)"/>'),
      svg('<rect style="background: image-set(\'http://evil.example/a.png\' 1x)"/>'),
      svg('<style>@import url("http://evil.example/a.css");</style>'),
      svg('<style>@import "a.css";</style>'),
      svg('<style><![CDATA[ rect { fill: url(/etc/passwd) } ]]></style>'),
      svg('<style>rect { fill: u\\rl(http://evil.example/x) }</style>'),
      svg('<style>@font-face { font-family: x; src: url(http://evil.example/f.woff) }</style>'),
      svg('<rect/>', ' inkscape:x="url(http://evil.example/x)" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"'),
    ]) {
      expect(refusal(text), text).toBe(UPLOAD_TEXTS.unsafeSvg);
    }
  });
});
