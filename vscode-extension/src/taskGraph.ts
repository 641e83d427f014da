// "PyPTO Lens: Show Task Graph": a webview beside the editor with the task graph of the
// function at the cursor, asked of the server with `workspace/executeCommand`
// `pyptoLens.taskGraph`. It follows the cursor into other functions and files and is asked again
// a moment after each edit; a click on a task in it reveals the call in the editor.
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';
import type { FromWebview, TaskGraphAnswer, ToWebview } from '../webview/contract';
import { utf16Character } from './columns';
import { describe, Logger } from './logging';
import { taskGraphHtml } from './taskGraphHtml';

/**
 * The client-side command (palette, editor menu, and the server's CodeLens `{uri, function}`).
 * The server must not list it among its executeCommand commands: the language client registers
 * those under the same names, and a second registration fails.
 */
export const SHOW_TASK_GRAPH = 'pyptoLens.showTaskGraph';
/** The server's executeCommand command that answers the graph. */
export const SERVER_TASK_GRAPH = 'pyptoLens.taskGraph';

const FOLLOW_DELAY_MS = 250;
const EDIT_DELAY_MS = 300;
const BUSY_AFTER_MS = 400;

type Request = { uri: string; position: { line: number; character: number } } | { uri: string; function: string };

/** Where the CodeLens (or a caller) asks the panel to look; `inlined`: a helper call's expansion to bring into view. */
export interface ShowTaskGraphArgument { uri: string; function: string; inlined?: number }

export function isShowArgument(value: unknown): value is ShowTaskGraphArgument {
    const v = value as Partial<ShowTaskGraphArgument> | undefined;
    return typeof v === 'object' && v !== null && typeof v.uri === 'string' && typeof v.function === 'string';
}

/** Whether the running server lists the task-graph command among its executeCommand commands. */
export function serverOffersTaskGraph(client: LanguageClient | undefined): boolean {
    const commands = client?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    return commands.includes(SERVER_TASK_GRAPH);
}

function isPlCandidate(document: vscode.TextDocument): boolean {
    return document.languageId === 'python' && (document.uri.scheme === 'file' || document.uri.scheme === 'untitled');
}

export class TaskGraphView implements vscode.Disposable {
    private panel: vscode.WebviewPanel | undefined;
    private panelListeners: vscode.Disposable[] = [];
    /** The file and function shown (the function once the server named one). */
    private target: { uri: string; function?: string } | undefined;
    private followTimer: NodeJS.Timeout | undefined;
    private editTimer: NodeJS.Timeout | undefined;
    private sequence = 0;
    private lastMessage: ToWebview | undefined;
    private lastPosted = '';
    /** What the next graph of that function shows first (a helper call's lens asked for it). */
    private focus: { uri: string; function: string; inlined: number } | undefined;

    constructor(private readonly extensionUri: vscode.Uri, private readonly client: () => LanguageClient | undefined,
        private readonly log: Logger) {}

    /** The command: opens (or brings forward) the panel for the given function or the cursor's. */
    async show(argument?: unknown): Promise<void> {
        this.open();
        if (isShowArgument(argument)) {
            this.target = { uri: argument.uri, function: argument.function };
            this.focus = typeof argument.inlined === 'number'
                ? { uri: argument.uri, function: argument.function, inlined: argument.inlined } : undefined;
            await this.fetch({ uri: argument.uri, function: argument.function });
            return;
        }
        const editor = vscode.window.activeTextEditor;
        if (editor && isPlCandidate(editor.document)) {
            await this.fetch(this.positionRequest(editor));
        } else if (this.target) {
            await this.refresh();
        } else {
            this.post({ type: 'notice', kind: 'empty', text: 'Open a pl program and put the cursor in an orchestration function.' });
        }
    }

    /** The server (re)started: ask again, so that the panel reflects the new one. */
    serverChanged(): void {
        if (this.panel) {
            void this.refresh();
        }
    }

    dispose(): void {
        this.panel?.dispose();
        this.closed();
    }

    private open(): void {
        if (this.panel) {
            this.panel.reveal(undefined, true); // where it is, the editor keeping the focus
            return;
        }
        const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
        const panel = vscode.window.createWebviewPanel('pyptoLens.taskGraph', 'Task Graph',
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            { enableScripts: true, localResourceRoots: [dist], retainContextWhenHidden: false });
        const nonce = randomBytes(18).toString('base64url');
        panel.webview.html = taskGraphHtml({
            cspSource: panel.webview.cspSource,
            nonce,
            scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
            styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
        });
        this.panel = panel;
        this.panelListeners = [
            panel.onDidDispose(() => this.closed()),
            panel.webview.onDidReceiveMessage((message: FromWebview) => this.onMessage(message)),
            vscode.window.onDidChangeTextEditorSelection((event) => this.onSelection(event.textEditor)),
            vscode.window.onDidChangeActiveTextEditor((editor) => editor && this.onSelection(editor)),
            vscode.workspace.onDidChangeTextDocument((event) => this.onEdit(event.document)),
        ];
    }

    private closed(): void {
        for (const d of this.panelListeners) {
            d.dispose();
        }
        this.panelListeners = [];
        clearTimeout(this.followTimer);
        clearTimeout(this.editTimer);
        this.panel = undefined;
        this.target = undefined;
        this.lastMessage = undefined;
        this.lastPosted = '';
    }

    private onMessage(message: FromWebview): void {
        if (message.type === 'ready') {
            // a new page (first open, or shown again after being hidden): what it should show
            this.lastPosted = '';
            if (this.lastMessage) {
                this.post(this.lastMessage);
            }
        } else if (message.type === 'reveal') {
            void this.reveal(message.uri, message.line, message.col).catch((error: unknown) =>
                this.log.error('revealing a task failed', error));
        } else if (message.type === 'pickFunction') {
            this.target = { uri: message.uri, function: message.function };
            void this.fetch({ uri: message.uri, function: message.function });
        }
    }

    /** The cursor moved (or another editor became active): the graph of its function, soon. */
    private onSelection(editor: vscode.TextEditor): void {
        if (!isPlCandidate(editor.document)) {
            return;
        }
        clearTimeout(this.followTimer);
        this.followTimer = setTimeout(() => void this.fetch(this.positionRequest(editor)), FOLLOW_DELAY_MS);
    }

    /**
     * The shown file's code lenses were asked again: after its edit, or when the server told the editor
     * that what it shows changed without an edit here (a kernel edited in another file, or changed on
     * disk by a git checkout). Ask again too, once that pauses.
     */
    lensesAsked(uri: string): void {
        if (!this.panel || !this.target || uri !== this.target.uri) {
            return;
        }
        clearTimeout(this.editTimer);
        this.editTimer = setTimeout(() => void this.refresh(), EDIT_DELAY_MS);
    }

    /** The shown file changed: ask again once the typing pauses. */
    private onEdit(document: vscode.TextDocument): void {
        if (!this.target || document.uri.toString() !== this.target.uri) {
            return;
        }
        clearTimeout(this.editTimer);
        this.editTimer = setTimeout(() => void this.refresh(), EDIT_DELAY_MS);
    }

    private async refresh(): Promise<void> {
        const target = this.target;
        if (target?.function) {
            await this.fetch({ uri: target.uri, function: target.function });
            return;
        }
        const editor = vscode.window.activeTextEditor;
        if (editor && isPlCandidate(editor.document)) {
            await this.fetch(this.positionRequest(editor));
        }
    }

    private positionRequest(editor: vscode.TextEditor): Request {
        const { line, character } = editor.selection.active;
        return { uri: editor.document.uri.toString(), position: { line, character } };
    }

    private async fetch(request: Request): Promise<void> {
        if (!this.panel) {
            return;
        }
        const client = this.client();
        if (!client || client.state !== State.Running) {
            this.post({ type: 'notice', kind: 'waiting', text: 'The PyPTO Lens server is not running yet. '
                + 'The graph appears once it runs (PyPTO Lens: Show Output tells why it does not).' });
            return;
        }
        if (!serverOffersTaskGraph(client)) {
            this.post(unsupported());
            return;
        }
        const mine = ++this.sequence;
        const busy = setTimeout(() => this.post({ type: 'busy', busy: true }), BUSY_AFTER_MS);
        let answer: TaskGraphAnswer | null;
        try {
            answer = await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_TASK_GRAPH, arguments: [request] }) as TaskGraphAnswer | null;
        } catch (error) {
            if (mine === this.sequence) {
                this.log.error('the task graph request failed', error);
                this.post(/unknown command|not found|MethodNotFound/i.test(describe(error)) ? unsupported()
                    : { type: 'notice', kind: 'error', text: `The server could not answer the task graph: ${describe(error)}` });
            }
            return;
        } finally {
            clearTimeout(busy);
            if (mine === this.sequence) {
                this.post({ type: 'busy', busy: false });
            }
        }
        if (mine !== this.sequence || !this.panel) {
            return; // a newer request went out meanwhile
        }
        this.showAnswer(request, answer);
    }

    private showAnswer(request: Request, answer: TaskGraphAnswer | null): void {
        const uri = answer?.uri ?? request.uri;
        const functions = answer?.functions ?? [];
        const graph = answer?.graph ?? null;
        if (graph) {
            this.target = { uri, function: graph.function };
            this.panel!.title = `Task Graph: ${graph.function}`;
            const focus = this.focus && this.focus.uri === uri && this.focus.function === graph.function
                ? { inlined: this.focus.inlined, request: this.sequence } : undefined; // (a second click asks again)
            this.focus = undefined;
            this.post({ type: 'graph', uri, functions, graph, ...(focus ? { focus } : {}) });
            return;
        }
        const current = this.target;
        if ('position' in request && current?.function && current.uri === uri && functions.includes(current.function)) {
            // the cursor left the function for code without a graph: keep showing this file's last one
            void this.fetch({ uri, function: current.function });
            return;
        }
        if ('position' in request && current?.function && functions.length === 0) {
            // a file without a graph of its own (an inline helper's, where a click on a task went): the
            // graph stays, and is asked again where it comes from
            void this.fetch({ uri: current.uri, function: current.function });
            return;
        }
        this.target = { uri };
        this.panel!.title = 'Task Graph';
        const asked = 'function' in request ? `${request.function} has no task graph (not an orchestration-like function here). ` : '';
        this.post({ type: 'graph', uri, functions, graph: null, note: asked ? `${asked}${functions.length ? `Functions with one: ${functions.join(', ')}.` : ''}` : undefined });
    }

    private post(message: ToWebview): void {
        if (!this.panel) {
            return;
        }
        if (message.type !== 'busy') {
            this.lastMessage = message;
        }
        const text = JSON.stringify(message);
        if (text === this.lastPosted) {
            return; // the same answer again (the cursor moved within the function)
        }
        if (message.type !== 'busy') {
            this.lastPosted = text;
        }
        void this.panel.webview.postMessage(message);
    }

    /** Shows the call at 1-based `line` / code-point `col` in an editor of its file, cursor there. */
    private async reveal(uri: string, line: number, col: number): Promise<void> {
        const target = vscode.Uri.parse(uri);
        const document = await vscode.workspace.openTextDocument(target);
        const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === target.toString());
        const lineIndex = Math.max(0, Math.min(document.lineCount - 1, line - 1));
        const position = document.validatePosition(new vscode.Position(lineIndex, utf16Character(document.lineAt(lineIndex).text, col)));
        const editor = await vscode.window.showTextDocument(document, {
            viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
            preserveFocus: false,
            selection: new vscode.Range(position, position),
        });
        editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
}

function unsupported(): ToWebview {
    return {
        type: 'notice', kind: 'unsupported',
        text: `This PyPTO Lens server does not offer the task graph yet (it has no ${SERVER_TASK_GRAPH} command). `
            + 'Update PyPTO Lens, or with the fromEnvironment import strategy update the pypto-lens installed in that environment.',
    };
}
