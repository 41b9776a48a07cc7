/**
 * The login form's static copy (src/prerendered.ts) comes down whenever something other than the
 * login page renders in its place: another route at start or later, or an error. (The login page
 * taking it over is tests/ui/user/login.test.tsx's.)
 */
import { onRouteChange } from '@/app';
import ChunkErrorBoundary from '@/components/ChunkErrorBoundary';
import { dropPrerendered, takePrerendered } from '@/prerendered';
import { render, screen } from '@testing-library/react';

let copy: HTMLElement;
beforeEach(() => {
  copy = document.createElement('div');
  copy.id = 'prerendered';
  copy.innerHTML = '<input autocomplete="username" value="admin"><input autocomplete="current-password">';
  document.body.prepend(copy);
});
afterEach(() => copy.remove());

const present = () => document.getElementById('prerendered') !== null;

test('takePrerendered hands over what was typed once, and the focus only when one of its fields has it', () => {
  expect(takePrerendered()).toEqual({ username: 'admin', password: '', focused: null, submitted: false });
  expect(present()).toBe(false);
  expect(takePrerendered()).toBeNull();
  dropPrerendered(); // nothing left to drop: no error
});

test("takePrerendered tells whether 登录 was pressed on the copy (noted by login.html's starter)", () => {
  copy.setAttribute('data-submitted', '');
  (copy.querySelector('[autocomplete="current-password"]') as HTMLInputElement).focus();
  expect(takePrerendered()).toEqual({ username: 'admin', password: '', focused: 'password', submitted: true });
});

test('at start, a URL other than /user/login drops it; /user/login keeps it for the page', () => {
  onRouteChange({ location: { pathname: '/user/login' }, isFirst: true });
  expect(present()).toBe(true);
  onRouteChange({ location: { pathname: '/login.html' }, isFirst: true });
  expect(present()).toBe(false);
});

test('a route change away from the login page drops it', () => {
  onRouteChange({ location: { pathname: '/user/login' } });
  expect(present()).toBe(true);
  onRouteChange({ location: { pathname: '/home' } });
  expect(present()).toBe(false);
});

test('an error in its place drops it, so that the error shows', () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  function Broken(): never {
    throw new Error('boom');
  }
  render(
    <ChunkErrorBoundary>
      <Broken />
    </ChunkErrorBoundary>,
  );
  expect(screen.getByRole('alert')).toHaveTextContent('页面出错了');
  expect(present()).toBe(false);
  jest.restoreAllMocks();
});
