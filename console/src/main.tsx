/** Entry point: renders the console into #app. */
import { render } from 'preact';
import { App } from './shell/app';
import '@picocss/pico/css/pico.min.css';
import './styles.css';

render(<App />, document.getElementById('app')!);
