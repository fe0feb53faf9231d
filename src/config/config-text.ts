// What a config error says, in the language the config asks for (`language:`, when the file got far
// enough to read it; English otherwise). Key paths, key names, values to type and file names stay as
// they are in every language. The schema's own messages for one key (a duration, a port) stay English.
import type { Language } from './language.js';

const en = {
  required: 'required',
  unknownKey: 'unknown key',
  readAs: (kind: 'number' | 'boolean') => `read as ${kind === 'number' ? 'a number' : 'true/false'}; put the value in quotes ("...")`,
  durationUnit: 'a duration needs its unit, like 20m or 1h',
  trueOrFalse: 'use true or false (without quotes)',
  /** A password YAML read as empty or null: a `#` after the colon starts a comment. */
  passwordComment:
    'empty: YAML reads what follows a # after a space as a comment, so a password beginning with # is lost. Put it in quotes: password: "#..."',
  envUnset: (name: string) => `environment variable ${name} is not set`,
  fileNotFound: (path: string) => `file not found; copy config.example.yaml to ${path} and fill in the accounts (or name another file with --config)`,
  cannotRead: (code: string) => `cannot read (${code})`,
  topLevel: 'the top level must be a mapping of keys',
  notValidYaml: (where: string, hint: string) => `not valid YAML${where}: ${hint}`,
  at: (line: number, column: number) => ` at line ${line}, column ${column}`,
  atLine: (line: number) => ` at line ${line}`,
  yamlHints: {
    alias: 'a value starts with * (quote it)',
    block: 'a value starts with | or > (quote it)',
    reserved: 'a value starts with a reserved character (quote it)',
    tag: 'a value starts with ! (quote it)',
    unexpected: 'unexpected text (a value with : # * & ! | > % @ or ` may need quotes)',
    indent: 'wrong indentation',
    other: 'quoting values with special characters may help',
  },
};

/** What a config error says: English's shape, every language's words. */
export type ConfigText = typeof en;

const pl: ConfigText = {
  required: 'wymagane',
  unknownKey: 'nieznany klucz',
  readAs: (kind) => `odczytane jako ${kind === 'number' ? 'liczba' : 'true/false'}; ujmij wartość w cudzysłów ("...")`,
  durationUnit: 'czas wymaga jednostki, np. 20m albo 1h',
  trueOrFalse: 'wpisz true albo false (bez cudzysłowu)',
  passwordComment:
    'puste: YAML traktuje to, co stoi za # po spacji, jako komentarz, więc hasło zaczynające się od # znika. Ujmij je w cudzysłów: password: "#..."',
  envUnset: (name) => `zmienna środowiskowa ${name} nie jest ustawiona`,
  fileNotFound: (path) => `nie ma pliku; skopiuj config.example.yaml do ${path} i uzupełnij konta (albo wskaż inny plik przez --config)`,
  cannotRead: (code) => `nie można odczytać (${code})`,
  topLevel: 'najwyższy poziom musi być mapą kluczy',
  notValidYaml: (where, hint) => `niepoprawny YAML${where}: ${hint}`,
  at: (line, column) => ` w wierszu ${line}, kolumnie ${column}`,
  atLine: (line) => ` w wierszu ${line}`,
  yamlHints: {
    alias: 'wartość zaczyna się od * (ujmij ją w cudzysłów)',
    block: 'wartość zaczyna się od | lub > (ujmij ją w cudzysłów)',
    reserved: 'wartość zaczyna się od zastrzeżonego znaku (ujmij ją w cudzysłów)',
    tag: 'wartość zaczyna się od ! (ujmij ją w cudzysłów)',
    unexpected: 'nieoczekiwany tekst (wartość z : # * & ! | > % @ lub ` może wymagać cudzysłowu)',
    indent: 'złe wcięcie',
    other: 'ujęcie wartości ze znakami specjalnymi w cudzysłów może pomóc',
  },
};

const uk: ConfigText = {
  required: 'обов’язково',
  unknownKey: 'невідомий ключ',
  readAs: (kind) => `прочитано як ${kind === 'number' ? 'число' : 'true/false'}; візьміть значення в лапки ("...")`,
  durationUnit: 'тривалість потребує одиниці, напр. 20m або 1h',
  trueOrFalse: 'вкажіть true або false (без лапок)',
  passwordComment:
    'порожньо: YAML читає те, що стоїть після # і пробілу, як коментар, тож пароль, що починається з #, губиться. Візьміть його в лапки: password: "#..."',
  envUnset: (name) => `змінну середовища ${name} не задано`,
  fileNotFound: (path) =>
    `файл не знайдено; скопіюйте config.example.yaml до ${path} і заповніть облікові записи (або вкажіть інший файл через --config)`,
  cannotRead: (code) => `не вдається прочитати (${code})`,
  topLevel: 'верхній рівень має бути відображенням ключів',
  notValidYaml: (where, hint) => `некоректний YAML${where}: ${hint}`,
  at: (line, column) => ` у рядку ${line}, стовпці ${column}`,
  atLine: (line) => ` у рядку ${line}`,
  yamlHints: {
    alias: 'значення починається з * (візьміть його в лапки)',
    block: 'значення починається з | або > (візьміть його в лапки)',
    reserved: 'значення починається із зарезервованого символу (візьміть його в лапки)',
    tag: 'значення починається з ! (візьміть його в лапки)',
    unexpected: 'неочікуваний текст (значення з : # * & ! | > % @ або ` може потребувати лапок)',
    indent: 'неправильний відступ',
    other: 'лапки навколо значень зі спецсимволами можуть допомогти',
  },
};

export const CONFIG_TEXT: Readonly<Record<Language, ConfigText>> = { pl, en, uk };
