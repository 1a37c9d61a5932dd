// Styles without inline <style> text or style attributes: a constructed stylesheet adopted by
// the document, which the webview CSP (style-src without 'unsafe-inline') allows. The CSS comes
// from .css files that esbuild bundles as strings (text loader).

export function adoptStyles(...cssTexts: string[]): void {
  const sheets = cssTexts.map((css) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
}
