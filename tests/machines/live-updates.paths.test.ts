import { it } from 'vitest';
import model, { expectedReconnectDelays } from './live-updates.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);

it('waits 1 s after the first drop, doubling with each drop in a row, never more than 30 s', () => expectedReconnectDelays());
