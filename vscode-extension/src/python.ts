// Which Python runs the server: the `pyptoLens.interpreter` setting, else the interpreter
// selected in the Python extension (through its public API, when it is installed), else
// `python3` on PATH. And whether that Python is new enough (3.10+).
import { execFile } from 'child_process';
import { PythonExtension } from '@vscode/python-extension';
import * as vscode from 'vscode';
import { describe, Logger } from './logging';

export const MIN_VERSION: [number, number] = [3, 10];
const PYTHON_EXTENSION_ID = 'ms-python.python';

export interface Interpreter {
    /** The command line that starts Python (interpreter plus any fixed arguments). */
    command: string[];
    /** Where it came from, for messages. */
    source: 'setting' | 'python extension' | 'PATH';
}

export type Check =
    | { ok: true; version: string; executable: string }
    | { ok: false; problem: 'missing' | 'too old' | 'broken'; detail: string };

export class PythonEnvironments implements vscode.Disposable {
    private api: PythonExtension | undefined;
    private readonly changed = new vscode.EventEmitter<void>();
    /** Fires when the interpreter selected in the Python extension changes. */
    readonly onDidChangeInterpreter = this.changed.event;
    private readonly disposables: vscode.Disposable[] = [this.changed];

    constructor(private readonly log: Logger) {}

    /** Connects to the Python extension when it is installed; harmless when it is not. */
    async initialize(): Promise<void> {
        if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
            this.log.debug('the Python extension is not installed: its interpreter is not consulted');
            return;
        }
        try {
            this.api = await PythonExtension.api();
            this.disposables.push(this.api.environments.onDidChangeActiveEnvironmentPath(() => this.changed.fire()));
        } catch (error) {
            this.log.warn(`the Python extension's API is not available: ${describe(error)}`);
        }
    }

    async resolve(setting: string[], resource?: vscode.Uri): Promise<Interpreter> {
        if (setting.length > 0) {
            return { command: setting, source: 'setting' };
        }
        const selected = await this.selected(resource);
        if (selected) {
            return { command: [selected], source: 'python extension' };
        }
        return { command: ['python3'], source: 'PATH' };
    }

    private async selected(resource?: vscode.Uri): Promise<string | undefined> {
        if (!this.api) {
            return undefined;
        }
        try {
            const environments = this.api.environments;
            const active = environments.getActiveEnvironmentPath(resource);
            const resolved = await environments.resolveEnvironment(active);
            return resolved?.executable.uri?.fsPath;
        } catch (error) {
            this.log.warn(`could not read the Python extension's interpreter: ${describe(error)}`);
            return undefined;
        }
    }

    dispose(): void {
        this.disposables.forEach((d) => d.dispose());
    }
}

/** Runs the interpreter once to learn its version; never throws. */
export function checkInterpreter(command: string[], timeoutMs = 15000): Promise<Check> {
    const [program, ...args] = command;
    const probe = 'import sys; print("%d.%d.%d" % sys.version_info[:3]); print(sys.executable)';
    return new Promise((resolve) => {
        execFile(program, [...args, '-c', probe], { timeout: timeoutMs }, (error, stdout, stderr) => {
            if (error) {
                const code = (error as NodeJS.ErrnoException).code;
                const missing = code === 'ENOENT' || code === 'EACCES';
                resolve({
                    ok: false,
                    problem: missing ? 'missing' : 'broken',
                    detail: missing
                        ? `${program} was not found`
                        : `${program} does not run (${(stderr.trim() || error.message).split('\n').slice(-1)[0]})`,
                });
                return;
            }
            const [version = '', executable = program] = stdout.trim().split(/\r?\n/);
            const [major, minor] = version.split('.').map((n) => parseInt(n, 10));
            if (!(major > MIN_VERSION[0] || (major === MIN_VERSION[0] && minor >= MIN_VERSION[1]))) {
                resolve({ ok: false, problem: 'too old', detail: `${executable} is Python ${version || 'of an unknown version'}` });
                return;
            }
            resolve({ ok: true, version, executable });
        });
    });
}
