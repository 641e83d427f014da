// The task-graph JSON the server's pyptoLens.taskGraph command answers (and that
// `pypto-lens graph --format json` prints), as the webview and the extension read it.
// Lines and columns are 1-based, columns in code points.

export type TaskKind = 'call' | 'dispatch' | 'submit' | 'barrier' | 'unknown';
export type EdgeKind = 'raw' | 'waw' | 'creator' | 'deps';
export type LoopKind = 'range' | 'parallel' | 'while' | 'unroll' | 'pipeline' | 'spmd';

export interface TaskArg {
    param: string;
    text: string;
    buffer: string | null;
    direction: string;
    region?: string;
}

export interface Task {
    id: number;
    name: string;
    kind: TaskKind;
    line: number;
    col: number;
    end_line?: number;
    end_col?: number;
    loops: number[];
    branch?: boolean;
    manual?: boolean;
    tid?: string | null;
    args?: TaskArg[];
    /** The file whose text holds the call when it is not the graph's: an inline helper's (N1). */
    uri?: string | null;
    /** That helper's name. */
    elsewhere?: string | null;
    waits_on_unknown?: boolean;
    /** The helper calls' expansions it came from (ids into `inlined`), outermost first. */
    inlined?: number[];
    /** What holds it, outermost first: loops `L<id>` and expansions `g<id>`. */
    path?: string[];
}

/** One call of an inline helper as it expanded in this graph (N1): the tasks it launches. */
export interface Expansion {
    id: number;
    helper: string;
    line: number;
    col: number;
    end_line?: number;
    end_col?: number;
    /** the file holding the call when it is not the graph's */
    uri?: string | null;
    /** the expansion whose text holds this call */
    parent?: number | null;
    tasks: number[];
    args?: { index: number; text: string; direction: string }[];
}

export interface Loop {
    id: number;
    kind: LoopKind | string;
    line: number;
    trips?: number | null;
    parent?: number | null;
    /** The file whose text holds the loop when it is not the graph's (an inline helper's). */
    uri?: string | null;
}

export interface Edge {
    from: number;
    to: number;
    rule: string;
    kind: EdgeKind | string;
    buffer?: string | null;
    carried?: boolean;
    overlap?: 'certain' | 'unknown' | string;
    /** Implied by other edges; absent when the producer did not say (the webview then computes it). */
    redundant?: boolean;
}

export interface Hazard {
    code: string;
    rule: string;
    severity: 'warning' | 'information' | string;
    first: number;
    second: number;
    buffer?: string | null;
    carried?: boolean;
    message: string;
    fix?: { title: string; kind: string } | null;
}

export interface TaskGraph {
    function: string;
    file?: string;
    line: number;
    host?: boolean;
    manual?: boolean;
    tasks: Task[];
    loops: Loop[];
    edges: Edge[];
    hazards: Hazard[];
    counts?: { tasks: number; edges: number; hazards: number };
    inlined?: Expansion[];
}

/** The answer of `workspace/executeCommand` `pyptoLens.taskGraph`. */
export interface TaskGraphAnswer {
    uri: string;
    functions: string[];
    graph: TaskGraph | null;
}

/** What to bring into view when the graph is shown: the expansion of a helper call (its code lens). */
export interface Focus { inlined?: number; request?: number }

/** What the extension tells the webview. */
export type ToWebview =
    | { type: 'graph'; uri: string; functions: string[]; graph: TaskGraph | null; note?: string; focus?: Focus }
    | { type: 'notice'; kind: 'unsupported' | 'error' | 'empty' | 'waiting'; text: string; functions?: string[]; uri?: string }
    | { type: 'busy'; busy: boolean };

/** What the webview asks of the extension. */
export type FromWebview =
    | { type: 'ready' }
    | { type: 'reveal'; uri: string; line: number; col: number; endLine?: number; endCol?: number }
    | { type: 'pickFunction'; uri: string; function: string };
