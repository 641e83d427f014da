// The count of the server's unexpected ends (src/crashes.ts): when the client starts it again, and what it says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CRASH_LIMIT, CRASH_WINDOW_MS, CrashWindow, describeExit, shortExit, writeToEndedProcess } from '../../src/crashes';

const KILLED = { code: null, signal: 'SIGKILL' };
const SECOND = 1000;

describe('CrashWindow', () => {
    it('restarts four times within three minutes and gives up at the fifth end', () => {
        assert.equal(CRASH_LIMIT, 4);
        assert.equal(CRASH_WINDOW_MS, 180 * SECOND);
        const window = new CrashWindow();
        const crashes = [0, 10, 20, 30, 40].map((s) => window.record(s * SECOND, KILLED));
        assert.deepEqual(crashes.map((c) => [c.count, c.restart]), [[1, true], [2, true], [3, true], [4, true], [5, false]]);
    });

    it('forgets the ends older than the window', () => {
        const window = new CrashWindow();
        for (const s of [0, 60, 120, 170]) {
            assert.equal(window.record(s * SECOND, KILLED).restart, true);
        }
        // 180 s after the first: that one is out of the window, four remain (60, 120, 170, 180)
        const fifth = window.record(180 * SECOND, KILLED);
        assert.deepEqual([fifth.count, fifth.restart], [4, true]);
        // one more at 181 s: five within the window
        assert.deepEqual([window.record(181 * SECOND, KILLED).count, window.record(182 * SECOND, KILLED).restart], [5, false]);
    });

    it('an end every 45 s or slower is always started again', () => {
        const window = new CrashWindow();
        for (let i = 0; i < 50; i++) {
            assert.equal(window.record(i * 45 * SECOND, KILLED).restart, true, `end ${i}`);
        }
    });

    it('starts the count again on reset (the user restarted the server)', () => {
        const window = new CrashWindow();
        for (let i = 0; i < 4; i++) {
            window.record(i * SECOND, KILLED);
        }
        window.reset();
        const next = window.record(5 * SECOND, KILLED);
        assert.deepEqual([next.count, next.restart], [1, true]);
    });

    it('takes its own limit and window', () => {
        const window = new CrashWindow(1, 90 * SECOND);
        assert.equal(window.record(0, KILLED).restart, true);
        assert.equal(window.record(SECOND, KILLED).restart, false);
        assert.equal(window.windowText(), '90 seconds');
        assert.equal(new CrashWindow(4, 60 * SECOND).windowText(), '1 minute');
    });

    it('says what happened, how many times, and what comes next', () => {
        const window = new CrashWindow();
        const first = window.record(0, KILLED);
        assert.equal(window.line(first), 'the server was killed with SIGKILL (as the out-of-memory killer does), '
            + 'the 1st unexpected end within 3 minutes: restarting it (restart 1 of at most 4)');
        assert.equal(window.statusDetail(first), 'restart 1 of at most 4 in 3 minutes (SIGKILL)');
        for (let i = 1; i < 4; i++) {
            window.record(i * SECOND, KILLED);
        }
        const last = window.record(4 * SECOND, { code: 1, signal: null });
        assert.equal(window.line(last), 'the server exited with code 1, the 5th unexpected end within 3 minutes: '
            + 'not restarted again; run "PyPTO Lens: Restart Server" to start it');
        assert.equal(window.gaveUpMessage(last), 'the server stopped unexpectedly 5 times within 3 minutes '
            + 'and is not restarted again; the last time it exited with code 1');
        assert.equal(window.statusDetail(last), 'crashed 5 times in 3 minutes (last: exit code 1)');
    });
});

describe('describeExit', () => {
    it('names the signal or the exit code', () => {
        assert.equal(describeExit({ code: null, signal: 'SIGKILL' }), 'was killed with SIGKILL (as the out-of-memory killer does)');
        assert.equal(describeExit({ code: null, signal: 'SIGSEGV' }), 'was killed with SIGSEGV');
        assert.equal(describeExit({ code: 3, signal: null }), 'exited with code 3');
        assert.equal(describeExit({ code: 0, signal: null }), 'exited (code 0) without being asked to');
        assert.equal(describeExit({ code: null, signal: null }), 'closed its connection');
        assert.deepEqual([shortExit({ code: null, signal: 'SIGKILL' }), shortExit({ code: 1, signal: null }),
            shortExit({ code: null, signal: null })], ['SIGKILL', 'exit code 1', 'connection closed']);
    });
});

describe('writeToEndedProcess', () => {
    const failed = (code: string, message: string) => Object.assign(new Error(message), { code });

    it('a write to a closed pipe or a destroyed stream: the process is gone, its close decides', () => {
        assert.equal(writeToEndedProcess(failed('EPIPE', 'write EPIPE')), true);
        assert.equal(writeToEndedProcess(failed('ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed')), true);
    });

    it('any other error is not', () => {
        assert.equal(writeToEndedProcess(failed('ERR_INVALID_ARG_TYPE', 'bad argument')), false);
        assert.equal(writeToEndedProcess(new Error('write EPIPE')), false); // (only the code says it)
        assert.equal(writeToEndedProcess(undefined), false);
        assert.equal(writeToEndedProcess('EPIPE'), false);
    });
});
