import model from './reports.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
