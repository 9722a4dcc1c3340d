import fs from 'fs';
import { join } from 'node:path';
import lodash from 'lodash';
import { helper } from './util';
const express = require('express');
const os = require('os');

const PORT = 3000;
let counter = 0;

/**
 * A base widget.
 */
class Widget extends Base {
  handle = (evt) => {
    this.emit(evt);
  };

  static create(opts) {
    return new Widget(opts);
  }

  constructor(name) {
    super(name);
    this.name = name;
  }

  render() {
    const el = document.createElement('div');
    helper.apply(el);
    return el;
  }
}

// Greets someone.
function greet(name, greeting = 'hi') {
  const format = (s) => s.trim();
  return format(`${greeting} ${name}`);
}

const add = (a, b) => a + b;

export const multiply = function (a, b) {
  return lodash.multiply(a, b);
};

export default class App extends Widget {
  start() {
    greet('x');
  }
}

module.exports.handler = async (req, res) => {
  res.send(add(1, 2));
};

app.listen(PORT, () => console.log('up'));
