import model from './assignee-picker.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
