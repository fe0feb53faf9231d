// The dashboard's own words (headings, labels, the lines its templates print), in each language.
import type { Language } from './language.js';

export interface DashboardText {
  title: string;
  header: string;
  today: string;
  school: string;
  messages: string;
  luckyYou: (name: string) => string;
  problem: string;
  nextLesson: string;
  noMoreLessons: string;
  room: string;
  substitution: string;
  lessonsToday: string;
  lessonsNext: string;
  changesToday: string;
  changesNext: string;
  noChanges: string;
  from: string;
  kinds: Record<string, string>;
  newestGrades: string;
  averages: string;
  subject: string;
  average: string;
  count: string;
  homework: string;
  tests: string;
  none: string;
  send: string;
  bridge: string;
}

export const DASHBOARD_TEXT: Record<Language, DashboardText> = {
  en: {
    title: 'School',
    header: 'dziennik2mqtt dashboard: in Home Assistant add a dashboard, open it, "Edit" > three dots > "Raw configuration editor", paste this.',
    today: 'Today',
    school: 'Grades and homework',
    messages: 'Messages',
    luckyYou: (name) => `Lucky number: it's you, ${name}!`,
    problem: 'The register cannot be read right now:',
    nextLesson: 'Next lesson',
    noMoreLessons: 'No more lessons today.',
    room: 'room',
    substitution: 'substitution',
    lessonsToday: 'Lessons today',
    lessonsNext: 'Next school day',
    changesToday: 'Plan changes today',
    changesNext: 'Plan changes next school day',
    noChanges: 'No changes.',
    from: 'moved from',
    kinds: { cancelled: 'cancelled', substitution: 'substitution', room_change: 'room change', shifted: 'moved' },
    newestGrades: 'Newest grades',
    averages: 'Average',
    subject: 'Subject',
    average: 'Average',
    count: 'Grades',
    homework: 'Homework due',
    tests: 'Tests in the next two weeks',
    none: 'Nothing.',
    send: 'Send to school',
    bridge: 'Bridge',
  },
  pl: {
    title: 'Szkoła',
    header: 'Dashboard dziennik2mqtt: w Home Assistant dodaj dashboard, otwórz go, "Edytuj" > trzy kropki > "Edytor konfiguracji", wklej to.',
    today: 'Dziś',
    school: 'Oceny i zadania',
    messages: 'Wiadomości',
    luckyYou: (name) => `Szczęśliwy numerek: to Ty, ${name}!`,
    problem: 'Nie da się teraz odczytać dziennika:',
    nextLesson: 'Następna lekcja',
    noMoreLessons: 'Dziś już nie ma lekcji.',
    room: 'sala',
    substitution: 'zastępstwo',
    lessonsToday: 'Lekcje dziś',
    lessonsNext: 'Następny dzień nauki',
    changesToday: 'Zmiany w planie dziś',
    changesNext: 'Zmiany w planie w następnym dniu nauki',
    noChanges: 'Bez zmian.',
    from: 'przeniesiona z',
    kinds: { cancelled: 'odwołana', substitution: 'zastępstwo', room_change: 'zmiana sali', shifted: 'przeniesiona' },
    newestGrades: 'Najnowsze oceny',
    averages: 'Średnia',
    subject: 'Przedmiot',
    average: 'Średnia',
    count: 'Ocen',
    homework: 'Zadania domowe na następny dzień',
    tests: 'Sprawdziany w najbliższych dwóch tygodniach',
    none: 'Brak.',
    send: 'Wyślij do szkoły',
    bridge: 'Mostek',
  },
};
