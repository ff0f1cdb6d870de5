import model from './request-edit.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
