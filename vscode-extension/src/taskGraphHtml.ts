// The task-graph webview's page: a strict Content-Security-Policy (scripts only with the page's
// nonce, styles and images only from the extension), the bundled stylesheet and script. No
// vscode import, so that the browser test builds the very same page.

export interface PageParts {
    /** `webview.cspSource`: where the extension's resources come from */
    cspSource: string;
    nonce: string;
    scriptUri: string;
    styleUri: string;
    /** scripts to run first, with the same nonce (the browser test's stand-in for VS Code) */
    preludeUris?: string[];
}

export function taskGraphHtml(parts: PageParts): string {
    const { cspSource, nonce } = parts;
    const csp = [
        "default-src 'none'",
        `img-src ${cspSource} data:`,
        `style-src ${cspSource}`,
        `font-src ${cspSource}`,
        `script-src 'nonce-${nonce}'`,
    ].join('; ');
    const prelude = (parts.preludeUris ?? []).map((uri) => `<script nonce="${nonce}" src="${escape(uri)}"></script>`).join('\n');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escape(parts.styleUri)}">
<title>Task Graph</title>
</head>
<body>
<div id="app"></div>
${prelude}
<script nonce="${nonce}" src="${escape(parts.scriptUri)}"></script>
</body>
</html>
`;
}

function escape(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
