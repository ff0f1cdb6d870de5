import model from './acn-lookup.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
