/** The device flow against a hostile OAuth server: bounded poll rate and bounded total time. */
import { describe, expect, test } from "bun:test";
import {
  clampExpiresIn,
  clampInterval,
  MAX_FLOW_S,
  pollForToken,
  requestDeviceCode,
} from "../../src/lib/auth/device-flow.ts";
import { DeviceFlowError } from "../../src/lib/errors.ts";
import { configureOAuth, type PollAnswer, TEST_CLIENT_ID } from "../fake-api/routes/oauth.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });

function pending(n: number): PollAnswer[] {
  return Array.from({ length: n }, () => "authorization_pending" as const);
}

function pollCount(): number {
  return api.requestsTo("/oauth/token/", "POST").length;
}

async function login(): Promise<{ error: unknown; sleeps: number[] }> {
  const t = createTestContext({ api });
  try {
    const code = await requestDeviceCode(t.ctx, TEST_CLIENT_ID);
    await pollForToken(t.ctx, TEST_CLIENT_ID, code);
    return { error: undefined, sleeps: t.sleeps };
  } catch (error) {
    return { error, sleeps: t.sleeps };
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("device flow limits", () => {
  test("interval 0 and a huge expires_in: one poll a second, expired_token after 15 minutes", async () => {
    configureOAuth(api.state, { interval: 0, deviceExpiresIn: 1e12, pollAnswers: pending(1000) });
    const { error, sleeps } = await login();
    expect(error).toBeInstanceOf(DeviceFlowError);
    expect((error as DeviceFlowError).code).toBe("expired_token");
    expect(sleeps.every((ms) => ms === 1000)).toBe(true);
    expect(sum(sleeps)).toBe(MAX_FLOW_S * 1000);
    // The last wait reaches the deadline, so it is not followed by a poll.
    expect(pollCount()).toBe(MAX_FLOW_S - 1);
  });

  test("a negative interval is polled at 1 s", async () => {
    configureOAuth(api.state, { interval: -5, pollAnswers: pending(2) });
    const { error, sleeps } = await login();
    expect(error).toBeUndefined();
    expect(sleeps).toEqual([1000, 1000, 1000]);
    expect(pollCount()).toBe(3);
  });

  test("a huge interval is capped at 30 s, and slow_down never goes past it", async () => {
    configureOAuth(api.state, { interval: 1e9, pollAnswers: ["slow_down", "authorization_pending"] });
    const { error, sleeps } = await login();
    expect(error).toBeUndefined();
    expect(sleeps).toEqual([30_000, 30_000, 30_000]);
    expect(pollCount()).toBe(3);
  });

  test("slow_down adds 5 s to a small interval (RFC 8628)", async () => {
    configureOAuth(api.state, { interval: 0, pollAnswers: ["slow_down", "slow_down"] });
    const { error, sleeps } = await login();
    expect(error).toBeUndefined();
    expect(sleeps).toEqual([1000, 6000, 11_000]);
  });

  test("the clamps", () => {
    expect([0, -1, 0.2, 5, 30, 31, Number.POSITIVE_INFINITY, Number.NaN, null].map(clampInterval)).toEqual([
      1, 1, 1, 5, 30, 30, 30, 5, 5,
    ]);
    expect(
      [1, 600, 900, 901, Number.POSITIVE_INFINITY, 0, -3, Number.NaN, undefined].map(clampExpiresIn),
    ).toEqual([1, 600, 900, 900, 900, 600, 600, 600, 600]);
  });
});
