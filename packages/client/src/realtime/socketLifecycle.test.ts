import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeTimerOptions } from '../testing/waitUntil';
import { SocketLifecycle, parseServerFrame, reconnectDelayMs, writeFrame } from './socketLifecycle';
import type { LifecycleSocket } from './socketLifecycle';

/** A socket that records what is sent and how it was closed. */
function recordingSocket() {
  const sent: unknown[] = [];
  const closes: { code?: number; reason?: string }[] = [];
  const socket: LifecycleSocket = {
    send: (data) => void sent.push(JSON.parse(data)),
    close: (code, reason) => void closes.push({ code, reason }),
    onopen: () => {},
    onmessage: () => {},
    onclose: () => {},
    onerror: null,
  };
  return { socket, sent, closes };
}

function lifecycle() {
  return new SocketLifecycle<LifecycleSocket>({ connectTimeoutMs: 15_000, pingIntervalMs: 30_000, pongTimeoutMs: 10_000, closeReason: 'closed by test' });
}

beforeEach(() => {
  vi.useFakeTimers(fakeTimerOptions);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('reconnectDelayMs', () => {
  it('doubles from the initial delay and stays at the cap', () => {
    const backoff = { initialDelayMs: 1000, maxDelayMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => reconnectDelayMs(attempt, backoff))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});

describe('SocketLifecycle', () => {
  it('runs the connect timeout unless authenticated first', () => {
    const timedOut = vi.fn();
    const first = lifecycle();
    first.startConnectTimer(timedOut);
    vi.advanceTimersByTime(15_000);
    expect(timedOut).toHaveBeenCalledTimes(1);

    const second = lifecycle();
    second.startConnectTimer(timedOut);
    second.attach(recordingSocket().socket);
    second.authenticated(() => {});
    vi.advanceTimersByTime(15_000);
    expect(timedOut).toHaveBeenCalledTimes(1);
    second.teardown(4000);
  });

  it('pings on the interval and reports the connection dead 10 s after the first unanswered ping', () => {
    const { socket, sent } = recordingSocket();
    const dead = vi.fn();
    const subject = lifecycle();
    subject.attach(socket);
    subject.authenticated(dead);
    vi.advanceTimersByTime(30_000);
    expect(sent).toEqual([{ type: 'ping', timestamp: Date.now() }]);
    subject.pong();
    vi.advanceTimersByTime(30_000 + 9_999);
    expect(dead).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(dead).toHaveBeenCalledTimes(1);
    subject.teardown(4000);
  });

  it('tears down: clears every timer, detaches the handlers but keeps an error listener, closes with the code', () => {
    const { socket, closes } = recordingSocket();
    const timedOut = vi.fn();
    const reopened = vi.fn();
    const subject = lifecycle();
    subject.startConnectTimer(timedOut);
    subject.attach(socket);
    subject.scheduleReconnect(1000, reopened);
    expect(subject.teardown(4000)).toBe(socket);
    expect(subject.socket).toBeNull();
    expect([socket.onopen, socket.onmessage, socket.onclose]).toEqual([null, null, null]);
    expect(socket.onerror).toBeTypeOf('function');
    expect(closes).toEqual([{ code: 4000, reason: 'closed by test' }]);
    vi.advanceTimersByTime(60_000);
    expect(timedOut).not.toHaveBeenCalled();
    expect(reopened).not.toHaveBeenCalled();
    expect(subject.teardown(4000)).toBeNull();
  });

  it('reopens after the scheduled delay', () => {
    const reopened = vi.fn();
    lifecycle().scheduleReconnect(2000, reopened);
    vi.advanceTimersByTime(1999);
    expect(reopened).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reopened).toHaveBeenCalledTimes(1);
  });
});

describe('frames', () => {
  it('writes JSON and reports a socket that cannot send', () => {
    const { socket, sent } = recordingSocket();
    expect(writeFrame(socket, { type: 'ping', timestamp: 1 })).toBe(true);
    expect(sent).toEqual([{ type: 'ping', timestamp: 1 }]);
    const failing = {
      send: () => {
        throw new Error('not open');
      },
    };
    expect(writeFrame(failing, { type: 'ping', timestamp: 1 })).toBe(false);
  });

  it('parses text frames with a type and nothing else', () => {
    expect(parseServerFrame('{"type":"pong"}')).toEqual({ type: 'pong' });
    expect(parseServerFrame('not json')).toBeNull();
    expect(parseServerFrame('{"kind":"pong"}')).toBeNull();
    expect(parseServerFrame('null')).toBeNull();
    expect(parseServerFrame(new ArrayBuffer(2))).toBeNull();
  });
});
