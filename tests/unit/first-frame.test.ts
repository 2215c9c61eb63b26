import { describe, expect, test } from 'vitest';
import {
  defaultWarmupSeconds,
  FIRST_FRAME_MS,
  firstFrameWarmupBudget,
  WARMUP_BUDGET_MS,
} from '../../src/core/warmup-runner';

describe('the first frame (issue 27)', () => {
  test('the element and demo warm up 3 s in 2D, 2 s in 3D (DESIGN section 7)', () => {
    expect(defaultWarmupSeconds(2)).toBe(3);
    expect(defaultWarmupSeconds(3)).toBe(2);
  });

  test('a formed start warms up only within the first second; a uniform start keeps 1.5 s', () => {
    expect(FIRST_FRAME_MS).toBeLessThan(1000);
    expect(firstFrameWarmupBudget('groups', 300)).toBe(FIRST_FRAME_MS - 300);
    expect(firstFrameWarmupBudget('groups', 2000)).toBe(0);
    expect(firstFrameWarmupBudget('groups', 0, 200)).toBe(200);
    expect(firstFrameWarmupBudget('uniform', 300)).toBe(WARMUP_BUDGET_MS);
    expect(firstFrameWarmupBudget('uniform', 5000, 600_000)).toBe(600_000);
  });
});
