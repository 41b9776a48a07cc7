/**
 * The OCS pages that were wider than a 375 px phone: controls that do not fit must stack or scroll
 * inside themselves. jsdom has no layout, so these check the structure that keeps the page narrow.
 */
import ConfigGenPage from '@/pages/OCS/configGen';
import AiPromptPage from '@/pages/OCS/preferenceSetting/aiPrompt';
import * as userApi from '@/contract/api/user';
import * as ocsAiApi from '@/contract/api/ocsAi';
import * as ocsApi from '@/contract/api/ocs';
import { answer } from '../api';
import { screen, within } from '@testing-library/react';
import { atViewport, renderAt } from '../helpers';
import { DEFAULTS, prefs } from './aiFixtures';

jest.mock('@/services/call');

let restore: () => void = () => {};
afterEach(() => restore());

beforeEach(() => {
  answer(ocsApi.scriptInfo, {
    success: true,
    data: {
      baseUrl: 'https://portal.example.edu',
      version: '1.0.0',
      changelog: [],
      userscriptUrl: 'https://portal.example.edu/api/ocs/userscript.user.js',
      subscriptionBase: 'https://portal.example.edu/api/ocs/config',
    },
  });
  answer(userApi.listTokens, { success: true, data: [], total: 0, current: 1, pageSize: 100 });
  answer(ocsAiApi.promptDefaults, { success: true, data: DEFAULTS });
  answer(ocsAiApi.getPreferences, prefs());
  answer(ocsAiApi.promptPreview, {
    success: true,
    data: { prompt: '预览', question: DEFAULTS.samples.single },
  });
});

describe('/OCS/configGen request type', () => {
  it('on a phone stacks the request types under their label, not a button row wider than the screen', async () => {
    restore = atViewport(375);
    renderAt('/OCS/configGen', <ConfigGenPage />);
    const form = await screen.findByTestId('request-form');
    expect(form).toHaveClass('ant-form-vertical');
    const group = within(form).getByLabelText('GM_xmlhttpRequest（推荐）').closest('.ant-radio-group') as HTMLElement;
    expect(group).toHaveStyle({ display: 'flex', flexDirection: 'column' });
    expect(group.querySelector('.ant-radio-button-wrapper')).toBeNull();
    expect(within(group).getByLabelText('fetch')).toBeInTheDocument();
  });

  it('keeps the one-line button switches on a desktop', async () => {
    restore = atViewport(1440);
    renderAt('/OCS/configGen', <ConfigGenPage />);
    const form = await screen.findByTestId('request-form');
    expect(form).toHaveClass('ant-form-inline');
    const gm = within(form).getByLabelText('GM_xmlhttpRequest（推荐）');
    expect(gm.closest('.ant-radio-button-wrapper')).not.toBeNull();
  });
});

describe('/OCS/preferenceSetting/aiPrompt question types', () => {
  it('on a phone scroll inside their own strip, which is never wider than the card', async () => {
    restore = atViewport(375);
    renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
    const strip = await screen.findByTestId('type-tabs');
    expect(strip).toHaveStyle({ maxWidth: '100%', overflowX: 'auto' });
    const types = within(strip).getAllByRole('radio');
    expect(types).toHaveLength(5); // all five are still there, reachable by scrolling
    expect(within(strip).getByText('未知题型')).toBeInTheDocument();
  });
});
