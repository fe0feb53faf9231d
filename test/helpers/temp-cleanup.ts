// Vitest setup file (run in every test file): removes the file's tempDir() folders after its last test.
// Registered before the file's own hooks, so it runs after them (after hooks run in reverse order):
// an App or a simulator a test file stops in its afterAll is gone before its data_dir is removed.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
