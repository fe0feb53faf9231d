// The bench measures the bin on the Node that Docker and add-on users run: the version it takes must
// follow the Dockerfile, so that a change of the image's Node changes what is measured.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bySemver, imageNodeMajor } from '../../../src/bench/image-node.js';

describe("the image's Node for the bench", () => {
  it('is the major version every node stage of the Dockerfile is built FROM', async () => {
    const dockerfile = await readFile(new URL('../../../Dockerfile', import.meta.url), 'utf8');
    const stages = [...dockerfile.matchAll(/^FROM\s+node:(\d+)/gim)].map((m) => Number(m[1]));
    expect(stages.length).toBeGreaterThan(0);
    expect(new Set(stages)).toEqual(new Set([imageNodeMajor(dockerfile)]));
  });

  it('moves with the Dockerfile, whatever the tag and platform', () => {
    expect(imageNodeMajor('# a comment\nFROM node:24-alpine AS build\nFROM node:24-alpine\n')).toBe(24);
    expect(imageNodeMajor('FROM --platform=$BUILDPLATFORM node:26.10.0-bookworm-slim AS build\n')).toBe(26);
    expect(imageNodeMajor('from node:22\n')).toBe(22);
  });

  it('is an error when the Dockerfile names no Node image', () => {
    expect(() => imageNodeMajor('FROM alpine:3.22\n')).toThrow(/FROM node/);
  });
});

describe('the newest release of a line', () => {
  it('is chosen by version, not by the order of the registry or of the text', () => {
    expect(['26.10.0', '26.9.0', '26.2.1', '26.10.1'].sort(bySemver)).toEqual(['26.2.1', '26.9.0', '26.10.0', '26.10.1']);
  });
});
