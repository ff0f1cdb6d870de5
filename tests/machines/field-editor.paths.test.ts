import model from './field-editor.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
