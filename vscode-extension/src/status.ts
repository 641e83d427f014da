// The language status items of pl programs (the `{}` entry in the status bar): the server's state and
// the active file's task count (the server's `pyptoLens/status` request), with quick toggles for the
// direction hints and the diagnostics. extension.ts tells it when a server starts, fails or stops, and
// when the server ended unexpectedly: being started again, or not any more (the crash limit).
import * as vscode from 'vscode';
import { LanguageClient, State } from 'vscode-languageclient/node';
import { SECTION } from './settings';

/** The server's request for a document's status (server/status.py). */
const STATUS_REQUEST = 'pyptoLens/status';
const REFRESH_DELAY_MS = 400;
const SELECTOR: vscode.DocumentSelector = [{ language: 'python' }];

export const TOGGLE_HINTS = 'pyptoLens.toggleInlayHints';
export const TOGGLE_DIAGNOSTICS = 'pyptoLens.toggleDiagnostics';

interface DocumentStatus {
    tasks: number;
    calls: number;
    scopes: number;
    withoutDirections: number;
}

type ServerState = 'starting' | 'running' | 'failed' | 'stopped';

/** The server's last unexpected end, in words (crashes.ts), and whether the client gave up on it. */
export interface CrashNote {
    detail: string;
    gaveUp: boolean;
}

export class LensStatus implements vscode.Disposable {
    private readonly server = vscode.languages.createLanguageStatusItem('pyptoLens.server', SELECTOR);
    private readonly hints = vscode.languages.createLanguageStatusItem('pyptoLens.hints', SELECTOR);
    private readonly diagnostics = vscode.languages.createLanguageStatusItem('pyptoLens.diagnostics', SELECTOR);
    private readonly listeners: vscode.Disposable[] = [];
    private client: LanguageClient | undefined;
    private clientListener: vscode.Disposable | undefined;
    private state: ServerState = 'starting';
    /** Since the last unexpected end, until the server runs again (or, once given up, until a restart). */
    private crash: CrashNote | undefined;
    private timer: NodeJS.Timeout | undefined;

    constructor() {
        this.server.name = 'PyPTO Lens';
        this.hints.name = 'PyPTO Lens hints';
        this.diagnostics.name = 'PyPTO Lens diagnostics';
        this.listeners.push(
            vscode.commands.registerCommand(TOGGLE_HINTS, () => toggle('inlayHints.enabled')),
            vscode.commands.registerCommand(TOGGLE_DIAGNOSTICS, () => toggle('diagnostics.enabled')),
            vscode.window.onDidChangeActiveTextEditor(() => this.refreshSoon()),
            vscode.workspace.onDidChangeTextDocument((event) => {
                if (event.document === vscode.window.activeTextEditor?.document) {
                    this.refreshSoon();
                }
            }),
            vscode.workspace.onDidChangeConfiguration((event) => {
                if (event.affectsConfiguration(SECTION)) {
                    this.showToggles();
                    this.refreshSoon();
                }
            }),
        );
        this.showToggles();
        this.setServer('starting');
    }

    /** A server is starting, runs (`client`), failed or was stopped. */
    setServer(state: ServerState, client?: LanguageClient): void {
        this.clientListener?.dispose();
        this.clientListener = undefined;
        this.client = client;
        this.state = state;
        this.crash = undefined;
        if (client) {
            this.clientListener = client.onDidChangeState((event) => {
                this.state = event.newState === State.Running ? 'running'
                    : event.newState === State.Starting ? 'starting' : 'stopped';
                if (this.state === 'running' && !this.crash?.gaveUp) {
                    this.crash = undefined;
                }
                this.refreshSoon();
            });
        }
        this.refreshSoon();
    }

    /** The server ended unexpectedly: the client starts it again, or (`gaveUp`) it stays stopped. */
    setCrashed(note: CrashNote): void {
        this.crash = note;
        this.refreshSoon();
    }

    private refreshSoon(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }
        this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.refresh();
        }, REFRESH_DELAY_MS);
    }

    private async refresh(): Promise<void> {
        const item = this.server;
        const crash = this.crash;
        if (crash?.gaveUp) {
            item.busy = false;
            item.severity = vscode.LanguageStatusSeverity.Error;
            item.text = 'PyPTO Lens: stopped';
            item.detail = crash.detail;
            item.command = { title: 'Restart', command: 'pyptoLens.restart' };
            return;
        }
        const running = this.state === 'running' && this.client !== undefined && this.client.state === State.Running;
        if (crash && !running) {
            item.busy = true;
            item.severity = vscode.LanguageStatusSeverity.Warning;
            item.text = 'PyPTO Lens: restarting';
            item.detail = crash.detail;
            item.command = { title: 'Show Output', command: 'pyptoLens.showOutput' };
            return;
        }
        item.busy = this.state === 'starting';
        item.severity = this.state === 'running' || this.state === 'starting'
            ? vscode.LanguageStatusSeverity.Information : vscode.LanguageStatusSeverity.Warning;
        if (!running || !this.client) {
            item.text = `PyPTO Lens: ${this.state === 'starting' ? 'starting' : 'not running'}`;
            item.detail = this.state === 'failed' ? 'the server did not start (see the output)' : undefined;
            item.command = this.state === 'starting' ? undefined
                : { title: 'Restart', command: 'pyptoLens.restart' };
            return;
        }
        item.command = { title: 'Show Output', command: 'pyptoLens.showOutput' };
        const document = vscode.window.activeTextEditor?.document;
        if (!document || document.languageId !== 'python') {
            item.text = 'PyPTO Lens';
            item.detail = 'server running';
            return;
        }
        let status: DocumentStatus | null = null;
        try {
            status = await this.client.sendRequest<DocumentStatus | null>(STATUS_REQUEST, { uri: document.uri.toString() });
        } catch {
            status = null; // an older server, or the request was cancelled by a newer edit
        }
        item.text = status ? `PyPTO Lens: ${plural(status.tasks, 'task')}` : 'PyPTO Lens';
        item.detail = status
            ? `server running; in this file ${plural(status.calls, 'call')}, ${plural(status.scopes, 'scope')}`
                + (status.withoutDirections ? `, ${plural(status.withoutDirections, 'call')} without directions` : '')
            : 'server running; no pl program in this file';
    }

    private showToggles(): void {
        const config = vscode.workspace.getConfiguration(SECTION);
        const hintsOn = config.get<boolean>('inlayHints.enabled', true);
        const style = config.get<string>('inlayHints.labelStyle', 'short');
        this.hints.text = hintsOn ? `Direction hints: ${style}` : 'Direction hints: off';
        this.hints.command = { title: hintsOn ? 'Hide' : 'Show', command: TOGGLE_HINTS };
        const diagnosticsOn = config.get<boolean>('diagnostics.enabled', true);
        this.diagnostics.text = diagnosticsOn ? 'Diagnostics: on' : 'Diagnostics: off';
        this.diagnostics.command = { title: diagnosticsOn ? 'Turn off' : 'Turn on', command: TOGGLE_DIAGNOSTICS };
    }

    dispose(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }
        this.clientListener?.dispose();
        for (const listener of this.listeners) {
            listener.dispose();
        }
        this.server.dispose();
        this.hints.dispose();
        this.diagnostics.dispose();
    }
}

/**
 * Flip a boolean pyptoLens setting in the user's settings, unless the workspace already sets it: then
 * there, where the user asked for it (the settings are window-scoped: no folder has its own). A toggle
 * must not write a `.vscode/settings.json` into the user's project.
 */
async function toggle(name: string): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const inWorkspace = config.inspect<boolean>(name)?.workspaceValue !== undefined;
    await config.update(name, !config.get<boolean>(name, true),
        inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}
