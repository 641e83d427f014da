// "Explain Directions at Cursor": the server's derivation of the call at a position, shown as a
// markdown preview beside the program, and written again while the program is edited (the preview
// follows its file), the position moved with the lines inserted or deleted above it.
import * as path from 'path';
import * as vscode from 'vscode';

const FOLLOW_DELAY_MS = 500;

/** Asks the server; undefined when it cannot answer (not running, failed). */
export type Explainer = (uri: vscode.Uri, position: vscode.Position) => Promise<string | undefined>;

interface Followed {
    source: vscode.Uri;
    position: vscode.Position;
    file: vscode.Uri;
}

export class ExplainPreview implements vscode.Disposable {
    private followed: Followed | undefined;
    private timer: NodeJS.Timeout | undefined;
    private readonly listener: vscode.Disposable;

    constructor(private readonly folder: vscode.Uri, private readonly explain: Explainer) {
        this.listener = vscode.workspace.onDidChangeTextDocument((event) => this.changed(event));
    }

    /** Explains the position and opens the preview; from now on it follows this document's edits. */
    async show(source: vscode.Uri, position: vscode.Position, markdown: string): Promise<void> {
        const file = await this.write(source, position, markdown);
        this.followed = { source, position, file };
        try {
            await vscode.commands.executeCommand('markdown.showPreviewToSide', file);
        } catch {
            // no markdown preview (the built-in extension disabled): the text itself
            const document = await vscode.workspace.openTextDocument(file);
            await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        }
    }

    private changed(event: vscode.TextDocumentChangeEvent): void {
        const followed = this.followed;
        if (!followed || event.document.uri.toString() !== followed.source.toString() || event.contentChanges.length === 0) {
            return;
        }
        followed.position = moved(followed.position, event.contentChanges);
        if (this.timer) {
            clearTimeout(this.timer);
        }
        this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.rewrite(followed);
        }, FOLLOW_DELAY_MS);
    }

    private async rewrite(followed: Followed): Promise<void> {
        const markdown = await this.explain(followed.source, followed.position);
        if (markdown === undefined || this.followed !== followed) {
            return;
        }
        // through the text document the preview renders (a file outside the workspace is not watched)
        const text = relativeLinks(markdown, path.dirname(followed.file.fsPath));
        const document = await vscode.workspace.openTextDocument(followed.file);
        if (document.getText() === text) {
            return;
        }
        const edit = new vscode.WorkspaceEdit();
        edit.replace(followed.file, new vscode.Range(0, 0, document.lineCount, 0), text);
        if (await vscode.workspace.applyEdit(edit)) {
            await document.save();
        }
    }

    /**
     * The explanation as a markdown file in the extension's storage (the markdown preview refuses
     * `file:` links in a virtual document: the server's links become relative paths, which it follows).
     */
    private async write(source: vscode.Uri, position: vscode.Position, markdown: string): Promise<vscode.Uri> {
        const name = (source.path.split('/').pop() ?? 'program').replace(/[^\w.-]/g, '_');
        const uri = vscode.Uri.joinPath(this.folder, `${name}, line ${position.line + 1}.md`);
        await vscode.workspace.fs.createDirectory(this.folder);
        const text = relativeLinks(markdown, path.dirname(uri.fsPath));
        await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
        return uri;
    }

    dispose(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }
        this.listener.dispose();
    }
}

/** The position after the edits: lines inserted or removed above it move it (its own line's edits do not). */
export function moved(position: vscode.Position, changes: readonly vscode.TextDocumentContentChangeEvent[]): vscode.Position {
    let line = position.line;
    for (const change of changes) {
        if (change.range.end.line < line) {
            const added = change.text.split('\n').length - 1;
            const removed = change.range.end.line - change.range.start.line;
            line = Math.max(change.range.start.line, line + added - removed);
        }
    }
    return new vscode.Position(line, position.character);
}

/** `[text](file:///a/b.py#L9,5)` -> `[text](<../../a/b.py#L9,5>)`, relative to `from`. */
export function relativeLinks(markdown: string, from: string): string {
    return markdown.replace(/\]\((file:\/\/[^)\s]+)\)/g, (whole, target: string) => {
        try {
            const uri = vscode.Uri.parse(target);
            const relative = path.relative(from, uri.fsPath).split(path.sep).join('/');
            return `](<${relative}${uri.fragment ? `#${uri.fragment}` : ''}>)`;
        } catch {
            return whole;
        }
    });
}
