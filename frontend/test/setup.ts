import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// react-router's data router needs these, and jsdom does not provide them.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// findBy* and waitFor wait for an event, not for a time: testing-library's default of 1 s
// fails on a loaded machine (two busy cores render a route in more than a second). The
// deadline is only a backstop; a passing test returns as soon as the element appears.
configure({ asyncUtilTimeout: 15_000 });
