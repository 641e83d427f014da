// Creating, starting and stopping the language client that runs the bundled PyPTO Lens server.
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, RevealOutputChannelOn, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { withReadOnlyCodes } from './docs';
import { Logger, lspTrace, pythonLogLevel } from './logging';
import { ExtensionSettings, readServerSettings, SECTION } from './settings';

export const CLIENT_ID = 'pyptoLens';
export const CLIENT_NAME = 'PyPTO Lens';

/** Python and C/C++ files: the server decides which hold pl programs or REGISTER_OP chains. */
export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { scheme: 'file', language: 'cpp' },
    { scheme: 'file', language: 'c' },
];

/** The server's entry script inside the extension (it sets up sys.path from bundled/libs). */
export function serverScript(extensionPath: string): string {
    return path.join(extensionPath, 'bundled', 'tool', 'pypto_lens_server.py');
}

/**
 * The process: `<python> -I bundled/tool/pypto_lens_server.py`. `-I` keeps the user's
 * PYTHONPATH, user site-packages and working directory out of the server's imports; the
 * import strategy tells the script where to put the bundled libraries.
 */
export function serverOptions(extensionPath: string, python: string[], settings: ExtensionSettings): ServerOptions {
    const [command, ...args] = python;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return {
        command,
        args: [...args, '-I', serverScript(extensionPath)],
        transport: TransportKind.stdio,
        options: {
            cwd: folder ?? extensionPath,
            env: {
                ...process.env,
                PYPTO_LENS_IMPORT_STRATEGY: settings.importStrategy,
                PYPTO_LENS_LOG_LEVEL: pythonLogLevel(settings.logLevel),
                PYTHONUTF8: '1',
            },
        },
    };
}

export function clientOptions(log: Logger): LanguageClientOptions {
    return {
        documentSelector: DOCUMENT_SELECTOR,
        outputChannel: log,
        traceOutputChannel: log,
        stdioOptions: {
            stdout: (input) => log.pipeServerLog(input),
            stderr: (input) => log.pipeServerLog(input),
        },
        revealOutputChannelOn: RevealOutputChannelOn.Never,
        // The server reads `pyptoLens` (and the editor's hint length cap, editor.inlayHints) through
        // workspace/configuration; it hears of changes here.
        synchronize: { configurationSection: [SECTION, 'editor.inlayHints'] },
        initializationOptions: { settings: readServerSettings() },
        // a diagnostic code's link opens the shipped page read-only (docs.ts)
        middleware: {
            handleDiagnostics: (uri, diagnostics, next) => next(uri, withReadOnlyCodes(diagnostics)),
            provideDiagnostics: async (document, previousResultId, token, next) => {
                const report = await next(document, previousResultId, token);
                if (report && report.kind === 'full') {
                    report.items = withReadOnlyCodes(report.items);
                }
                return report;
            },
        },
    };
}

export async function startClient(extensionPath: string, python: string[], settings: ExtensionSettings,
    log: Logger): Promise<LanguageClient> {
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(extensionPath, python, settings),
        clientOptions(log));
    log.info(`starting the server: ${python.join(' ')} -I ${serverScript(extensionPath)} `
        + `(import strategy ${settings.importStrategy})`);
    try {
        await client.start();
    } catch (error) {
        await client.dispose(2000).catch(() => undefined);
        throw error;
    }
    await client.setTrace(lspTrace(settings.logLevel));
    const info = client.initializeResult?.serverInfo;
    log.info(`server started: ${info?.name ?? 'pypto-lens'} ${info?.version ?? ''}`.trim());
    return client;
}

/**
 * The client sets its trace again on every configuration change (from VS Code's own log
 * level); registered after the client started, this listener runs after the client's and puts
 * back the trace that `pyptoLens.logLevel` asks for.
 */
export function keepTrace(client: LanguageClient, log: Logger): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration(() => {
        if (client.isRunning()) {
            void client.setTrace(lspTrace(log.getLevel()));
        }
    });
}

export async function stopClient(client: LanguageClient | undefined, log: Logger): Promise<void> {
    if (!client) {
        return;
    }
    try {
        await client.dispose(2000);
    } catch (error) {
        log.debug(`stopping the server: ${String(error)}`);
    }
}
