// Reading the `pyptoLens` settings: the extension's own (interpreter, import strategy, log level)
// and the server's (everything else, which the server reads through workspace/configuration).
import * as os from 'os';
import * as vscode from 'vscode';
import { LogLevel, parseLogLevel } from './logging';

export const SECTION = 'pyptoLens';

export type ImportStrategy = 'useBundled' | 'fromEnvironment';

export interface ExtensionSettings {
    /** The interpreter command line, variables substituted; empty when not set. */
    interpreter: string[];
    importStrategy: ImportStrategy;
    logLevel: LogLevel;
}

/** Settings whose change needs a new server process (the rest reach the running server). */
const RESTART_SETTINGS = ['interpreter', 'importStrategy', 'logLevel'];

/** The folder the server's settings are read for: the first workspace folder, if any. */
export function mainFolder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
}

export function readExtensionSettings(folder = mainFolder()): ExtensionSettings {
    const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    const interpreter = config.get<unknown>('interpreter');
    const strategy = config.get<string>('importStrategy');
    return {
        interpreter: Array.isArray(interpreter)
            ? interpreter.filter((part): part is string => typeof part === 'string' && part.length > 0)
                .map((part) => substitute(part, folder))
            : [],
        importStrategy: strategy === 'fromEnvironment' ? 'fromEnvironment' : 'useBundled',
        logLevel: parseLogLevel(config.get('logLevel')),
    };
}

/** The server's settings as the server reads them (`initializationOptions.settings`). */
export function readServerSettings(folder = mainFolder()): Record<string, unknown> {
    const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    const values: Record<string, unknown> = {};
    for (const group of ['inlayHints', 'diagnostics', 'hazards', 'taskGraph']) {
        const value = config.get<unknown>(group);
        if (value !== undefined) {
            values[group] = value;
        }
    }
    return values;
}

/** True when the change touches a setting that needs a new server process. */
export function needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
    return RESTART_SETTINGS.some((name) => event.affectsConfiguration(`${SECTION}.${name}`));
}

/** `${workspaceFolder}`, `${userHome}` and `${env:NAME}` in a setting's value. */
export function substitute(value: string, folder?: vscode.WorkspaceFolder): string {
    return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
        if (name === 'workspaceFolder') {
            return folder?.uri.fsPath ?? whole;
        }
        if (name === 'userHome') {
            return os.homedir();
        }
        if (name.startsWith('env:')) {
            return process.env[name.slice(4)] ?? '';
        }
        return whole;
    });
}
