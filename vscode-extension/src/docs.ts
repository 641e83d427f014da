// The page every diagnostic code links to (docs/diagnostics.md, shipped with the server) opened read-only:
// the server's link is a `file:` uri into the installed package, which VS Code would open as an
// editable file of the extension. Diagnostics pass through here, their code's link rewritten to a
// read-only document of ours (`pypto-lens-docs:`, the same lines: `#L29` still opens at the
// heading; Markdown: Open Preview shows it rendered).
import * as path from 'path';
import * as vscode from 'vscode';

export const DOCS_SCHEME = 'pypto-lens-docs';
const PAGE = 'diagnostics.md';

/** A diagnostic's code link into the shipped page, made read-only; anything else as it is. */
export function readOnlyCode(code: vscode.Diagnostic['code']): vscode.Diagnostic['code'] {
    if (typeof code !== 'object' || code === null || !(code.target instanceof vscode.Uri)) {
        return code;
    }
    const target = code.target;
    if (target.scheme !== 'file' || path.basename(target.fsPath) !== PAGE) {
        return code;
    }
    return { value: code.value, target: vscode.Uri.from({ scheme: DOCS_SCHEME, path: `/${PAGE}`, query: target.fsPath, fragment: target.fragment }) };
}

export function withReadOnlyCodes(diagnostics: readonly vscode.Diagnostic[]): vscode.Diagnostic[] {
    return diagnostics.map((d) => {
        const code = readOnlyCode(d.code);
        if (code !== d.code) {
            d.code = code;
        }
        return d;
    });
}

/** Serves the page: the file the server linked (its query), only ever a diagnostics.md. */
export class DocsProvider implements vscode.TextDocumentContentProvider {
    async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
        if (path.basename(uri.query) !== PAGE) {
            return '';
        }
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(uri.query));
        return new TextDecoder('utf-8').decode(bytes);
    }
}
