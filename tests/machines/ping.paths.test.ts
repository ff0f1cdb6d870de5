import model from './ping.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
