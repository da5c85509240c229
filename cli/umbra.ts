/** The program `bin/umbra` starts: the command line on this process's arguments. */
import { main } from './main.js';

await main(process.argv.slice(2));
