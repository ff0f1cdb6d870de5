import model from './label-picker.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
