import * as defaults from '@/requestDefaults';
import { errorConfig, errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import { fetchJson, FetchError } from '@/services/http';
import { ShowType } from '@/contract/endpoint';
import { message, notification } from 'antd';

describe('request defaults live in one place', () => {
  it('has the numbers the shell specifies', () => {
    expect(defaults.USE_REQUEST_DEFAULTS).toEqual({
      refreshOnWindowFocus: true,
      focusTimespan: 5000,
      cacheTime: 5 * 60 * 1000,
      defaultPageSize: 10,
      threshold: 100,
    });
    expect(defaults.DROPDOWN_DELAYS).toEqual({ mouseEnterDelay: 0.15, mouseLeaveDelay: 0.1 });
  });
});

describe('error config', () => {
  const { errorThrower, errorHandler } = errorConfig.errorConfig!;

  it('throws on success:false with the envelope attached, and passes success:true', () => {
    expect(() => errorThrower!({ success: true, data: 1 })).not.toThrow();
    let caught: any;
    try {
      errorThrower!({ success: false, errorCode: 'X', errorMessage: '余额不足' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ name: 'BizError', message: '余额不足', info: { errorCode: 'X' } });
  });

  it('shows errorMessage unless skipErrorHandler is set', () => {
    const spy = jest.spyOn(message, 'error').mockImplementation(() => undefined as never);
    const error = { response: { status: 409, data: { success: false, errorMessage: '用户名已被占用' } } } as any;
    errorHandler!(error, {});
    expect(spy).toHaveBeenCalledWith('用户名已被占用');
    spy.mockClear();
    expect(() => errorHandler!(error, { skipErrorHandler: true })).toThrow();
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('shows each kind of error the way the answer asks', () => {
    const error = jest.spyOn(message, 'error').mockImplementation(() => undefined as never);
    const warning = jest.spyOn(message, 'warning').mockImplementation(() => undefined as never);
    const notice = jest.spyOn(notification, 'error').mockImplementation(() => undefined);
    const answer = (showType: ShowType) =>
      ({ response: { status: 409, data: { success: false, errorMessage: '出错了', showType } } }) as any;
    errorHandler!(answer(ShowType.WARN_MESSAGE), {});
    errorHandler!(answer(ShowType.NOTIFICATION), {});
    errorHandler!(answer(ShowType.SILENT), {});
    errorHandler!(answer(ShowType.ERROR_MESSAGE), {});
    expect(error).toHaveBeenCalledWith('出错了');
    expect(warning).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledWith('出错了');
    expect(notice).toHaveBeenCalledTimes(1);
    expect(notice).toHaveBeenCalledWith({ message: '请求失败', description: '出错了' });
    expect(error).toHaveBeenCalledTimes(1); // the silent one showed nothing
    jest.restoreAllMocks();
  });

  it('reads messages and field errors from any failure shape', () => {
    expect(errorMessageOf({ request: {} })).toBe('网络异常，无法连接服务器');
    expect(errorMessageOf({ response: { status: 502, statusText: 'Bad Gateway', data: '<html>' } })).toBe(
      '请求失败（502 Bad Gateway）',
    );
    expect(
      fieldErrorsOf({ response: { status: 400, data: { success: false, data: { username: ['太短'], x: 'no' } } } }),
    ).toEqual({ username: ['太短'] });
  });

  it('names the request id of a server failure so the user can quote it', () => {
    const internal = {
      response: {
        status: 500,
        data: { success: false, errorCode: 'INTERNAL', errorMessage: '服务器内部错误，请稍后重试', requestId: 'r-1' },
      },
    };
    expect(errorMessageOf(internal)).toBe('服务器出错了，请稍后再试（请求编号 r-1）');
    // A proxy's 502 page has no envelope; the id comes from the X-Request-Id header when the server sent one.
    const headers = { get: (name: string) => (name === 'x-request-id' ? 'r-2' : undefined) };
    expect(errorMessageOf({ response: { status: 502, data: '<html>', headers } })).toBe(
      '服务器出错了，请稍后再试（请求编号 r-2）',
    );
    // 4xx answers keep their own message, even with an id.
    expect(errorMessageOf({ response: { status: 409, data: { errorMessage: '已存在', requestId: 'r-3' } } })).toBe(
      '已存在',
    );
  });
});

describe('fetchJson', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  function answer(status: number, statusText: string, body: string) {
    global.fetch = jest.fn().mockResolvedValue({ ok: status < 400, status, statusText, text: async () => body });
  }

  it('returns the parsed JSON on success', async () => {
    answer(200, 'OK', '{"success":true,"data":{"registration":"open"}}');
    await expect(fetchJson('/api/user/settings')).resolves.toEqual({ success: true, data: { registration: 'open' } });
  });

  it('raises a FetchError carrying the status text on a non-OK status', async () => {
    answer(503, 'Service Unavailable', '{"success":false,"errorCode":"DOWN","errorMessage":"维护中"}');
    const error = (await fetchJson('/api/health').catch((e: unknown) => e)) as FetchError;
    expect(error).toBeInstanceOf(FetchError);
    expect(error.message).toBe('503 Service Unavailable');
    expect(error.statusText).toBe('Service Unavailable');
    expect(error.body).toMatchObject({ errorMessage: '维护中' });
  });

  it('sends JSON bodies with Content-Type application/json', async () => {
    answer(200, 'OK', '{"success":true}');
    await fetchJson('/api/x', { method: 'POST', json: { a: 1 } });
    const [, init] = (global.fetch as jest.Mock).mock.calls[0];
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Headers).get('content-type')).toBe('application/json');
  });
});
