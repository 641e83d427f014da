// Activation: the output channel, the commands, and (re)starting the server when its
// interpreter or the extension's settings change. A server that ends unexpectedly is started again
// by the language client itself (server.ts's CrashHandler), within the limit of crashes.ts.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';
import { DocsProvider, DOCS_SCHEME } from './docs';
import { ExplainPreview } from './explain';
import { CrashWindow } from './crashes';
import { describe, Logger } from './logging';
import { checkInterpreter, Check, Interpreter, MIN_VERSION, PythonEnvironments } from './python';
import { CrashHandler, keepTrace, startClient, stopClient } from './server';
import { SHOW_TASK_GRAPH, TaskGraphView } from './taskGraph';
import { mainFolder, needsRestart, readExtensionSettings, SECTION } from './settings';
import { LensStatus } from './status';

const RESTART_DELAY_MS = 1000;
/** The server's workspace/executeCommand command (the client also registers it under this name). */
const SERVER_EXPLAIN = 'pyptoLens.explain';

let lens: Lens | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    lens = new Lens(context);
    await lens.activate();
}

export async function deactivate(): Promise<void> {
    await lens?.shutdown();
    lens = undefined;
}

class Lens {
    private readonly log = new Logger('PyPTO Lens');
    private readonly python = new PythonEnvironments(this.log);
    private readonly explanations: ExplainPreview;
    private readonly status = new LensStatus();
    private readonly taskGraph: TaskGraphView;
    /** The server's unexpected ends: counted across the client's own restarts, reset by ours. */
    private readonly crashes = new CrashWindow();
    private client: LanguageClient | undefined;
    private clientListeners: vscode.Disposable | undefined;
    private restartTimer: NodeJS.Timeout | undefined;
    private restarting: Promise<void> = Promise.resolve();
    /** The last interpreter problem shown, so that each is shown once. */
    private shownProblem: string | undefined;

    constructor(private readonly context: vscode.ExtensionContext) {
        this.explanations = new ExplainPreview(vscode.Uri.joinPath(context.globalStorageUri, 'explanations'),
            (uri, position) => this.askExplain(uri, position));
        this.taskGraph = new TaskGraphView(context.extensionUri, () => this.client, this.log);
    }

    async activate(): Promise<void> {
        const { context, log } = this;
        log.setLevel(readExtensionSettings().logLevel);
        context.subscriptions.push(
            log,
            this.python,
            this.status,
            this.explanations,
            vscode.commands.registerCommand('pyptoLens.restart', () => this.restart('the Restart Server command', true)),
            vscode.commands.registerCommand('pyptoLens.showOutput', () => log.show()),
            vscode.commands.registerCommand('pyptoLens.explainAtCursor', () => this.explainAtCursor()),
            // a scope header's code lens runs this (server/code_lens.py)
            vscode.commands.registerCommand('pyptoLens.explainAt', (uri: string, line: number, character: number) =>
                this.explainAt(vscode.Uri.parse(uri), new vscode.Position(line, character))),
            this.taskGraph,
            vscode.workspace.registerTextDocumentContentProvider(DOCS_SCHEME, new DocsProvider()),
            // also the server's CodeLens command, with a `{uri, function}` argument
            vscode.commands.registerCommand(SHOW_TASK_GRAPH, (argument?: unknown) => this.taskGraph.show(argument)),
            vscode.workspace.onDidChangeConfiguration((event) => {
                if (event.affectsConfiguration(SECTION)) {
                    log.setLevel(readExtensionSettings().logLevel);
                }
                if (needsRestart(event)) {
                    this.scheduleRestart('a pyptoLens setting changed');
                }
            }),
            vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleRestart('the workspace folders changed')),
            this.python.onDidChangeInterpreter(() => {
                if (readExtensionSettings().interpreter.length === 0) {
                    this.scheduleRestart('the Python extension selected another interpreter');
                }
            }),
        );
        log.info(`PyPTO Lens ${context.extension.packageJSON.version} activated`);
        await this.python.initialize();
        await this.restart('activation', false);
    }

    /** Several triggers in a row give one restart, a moment after the last. */
    private scheduleRestart(reason: string): void {
        if (this.restartTimer) {
            clearTimeout(this.restartTimer);
        }
        this.restartTimer = setTimeout(() => {
            this.restartTimer = undefined;
            void this.restart(reason, false);
        }, RESTART_DELAY_MS);
    }

    /** Stops the running server, then starts one with the current interpreter and settings. */
    restart(reason: string, byUser: boolean): Promise<void> {
        // one at a time, in order; a failed one does not stop the next
        this.restarting = this.restarting
            .then(() => this.doRestart(reason, byUser))
            .catch((error: unknown) => this.log.error('restarting the server failed', error));
        return this.restarting;
    }

    private async doRestart(reason: string, byUser: boolean): Promise<void> {
        const { log } = this;
        log.info(`(re)starting the server: ${reason}`);
        await this.stop();
        const settings = readExtensionSettings();
        const interpreter = await this.python.resolve(settings.interpreter, mainFolder()?.uri);
        const check = await checkInterpreter(interpreter.command);
        if (!check.ok) {
            this.status.setServer('failed');
            this.reportInterpreter(interpreter, check, byUser);
            return;
        }
        this.shownProblem = undefined;
        log.info(`Python ${check.version} (${check.executable}), from ${interpreter.source}`);
        this.status.setServer('starting');
        // a restart asked for (the command, a setting, activation) starts the count of crashes again
        this.crashes.reset();
        const crashes = new CrashHandler(this.crashes, {
            restarting: (crash) => this.status.setCrashed({ detail: this.crashes.statusDetail(crash), gaveUp: false }),
            gaveUp: (crash) => {
                this.status.setCrashed({ detail: this.crashes.statusDetail(crash), gaveUp: true });
                this.reportGaveUp(this.crashes.gaveUpMessage(crash));
            },
        });
        try {
            this.client = await startClient(this.context.extensionPath, interpreter.command, settings, log, crashes,
                (uri) => this.taskGraph.lensesAsked(uri));
            this.clientListeners = keepTrace(this.client, log);
            this.status.setServer('running', this.client);
            this.taskGraph.serverChanged();
        } catch (error) {
            // vscode-languageclient has already shown its notification, with a button to this output
            log.error('the server did not start', error);
            this.status.setServer('failed');
        }
    }

    /** The client stopped restarting a crashing server: say so once, with the way out. */
    private reportGaveUp(detail: string): void {
        const message = `PyPTO Lens: ${detail}. Its log is in the output; "Restart Server" starts it again.`;
        void vscode.window.showWarningMessage(message, 'Restart Server', 'Show Output').then((choice) => {
            if (choice === 'Restart Server') {
                void this.restart('the Restart Server button of the crash notification', true);
            } else if (choice === 'Show Output') {
                this.log.show();
            }
        });
    }

    /** One clear notification per problem (again when the user restarts), with what to do. */
    private reportInterpreter(interpreter: Interpreter, check: Extract<Check, { ok: false }>, byUser: boolean): void {
        const where = {
            setting: 'from the pyptoLens.interpreter setting',
            'python extension': 'the interpreter selected in the Python extension',
            PATH: 'python3 on PATH',
        }[interpreter.source];
        const message = `PyPTO Lens needs Python ${MIN_VERSION.join('.')} or newer to run its server: `
            + `${check.detail} (${where}). Install Python 3.10+ and select it (Python: Select Interpreter) `
            + 'or set pyptoLens.interpreter, then run "PyPTO Lens: Restart Server".';
        this.log.error(message);
        const key = `${interpreter.command.join(' ')}|${check.problem}`;
        if (this.shownProblem === key && !byUser) {
            return;
        }
        this.shownProblem = key;
        void vscode.window.showWarningMessage(message, 'Open Settings', 'Show Output').then((choice) => {
            if (choice === 'Open Settings') {
                void vscode.commands.executeCommand('workbench.action.openSettings', 'pyptoLens.interpreter');
            } else if (choice === 'Show Output') {
                this.log.show();
            }
        });
    }

    /** "Explain Directions at Cursor": the server's derivation of the call, as a markdown preview. */
    private async explainAtCursor(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        if (!editor) {
            void vscode.window.showInformationMessage('PyPTO Lens: open a pl program and put the cursor on a call.');
            return;
        }
        await this.explainAt(editor.document.uri, editor.selection.active);
    }

    private async explainAt(uri: vscode.Uri, position: vscode.Position): Promise<void> {
        const client = this.client;
        if (!client || client.state !== State.Running) {
            void vscode.window.showWarningMessage('PyPTO Lens: the server is not running.', 'Show Output')
                .then((choice) => choice && this.log.show());
            return;
        }
        let markdown: unknown;
        try {
            markdown = await client.sendRequest(ExecuteCommandRequest.type, {
                command: SERVER_EXPLAIN,
                arguments: [uri.toString(), position.line, position.character],
            });
        } catch (error) {
            this.log.error('explain failed', error);
            void vscode.window.showErrorMessage(`PyPTO Lens: explain failed (${describe(error)}).`);
            return;
        }
        await this.explanations.show(uri, position, String(markdown ?? ''));
    }

    /** The explanation at a position again (the preview follows edits); undefined without a server. */
    private async askExplain(uri: vscode.Uri, position: vscode.Position): Promise<string | undefined> {
        const client = this.client;
        if (!client || client.state !== State.Running) {
            return undefined;
        }
        try {
            const markdown = await client.sendRequest(ExecuteCommandRequest.type, {
                command: SERVER_EXPLAIN, arguments: [uri.toString(), position.line, position.character],
            });
            return String(markdown ?? '');
        } catch (error) {
            this.log.debug(`explain again failed: ${describe(error)}`);
            return undefined;
        }
    }

    async shutdown(): Promise<void> {
        if (this.restartTimer) {
            clearTimeout(this.restartTimer);
        }
        await this.restarting;
        await this.stop();
    }

    private async stop(): Promise<void> {
        this.clientListeners?.dispose();
        this.clientListeners = undefined;
        await stopClient(this.client, this.log);
        this.client = undefined;
        this.status.setServer('stopped');
    }
}
