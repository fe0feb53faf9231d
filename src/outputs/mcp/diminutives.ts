// How a Polish family calls its children (interface 17.1): the common diminutives of first names, so that "Zosia",
// "Antek" or "Staś" finds Zofia, Antoni or Stanisław. One group per first name: the name, then the forms a family
// says; a child's own first name may itself be one of the forms ("Ania" in the register finds "Anna" and "Anusia").
// Compared loosely (case, diacritics and ł aside).
import { loose } from '../../features/screens/ask.js';

const GROUPS: readonly (readonly string[])[] = [
  ['Zofia', 'Zosia', 'Zośka', 'Zosieńka', 'Zocha'],
  ['Antoni', 'Antek', 'Antoś', 'Tosiek'],
  ['Antonina', 'Tosia', 'Tośka', 'Tonia'],
  ['Stanisław', 'Staś', 'Stasiek', 'Stach', 'Stasio'],
  ['Stanisława', 'Stasia', 'Staśka'],
  ['Jan', 'Jaś', 'Janek', 'Jasiek', 'Jasio'],
  ['Janina', 'Janka', 'Jasia'],
  ['Katarzyna', 'Kasia', 'Kaśka', 'Kasieńka'],
  ['Aleksandra', 'Ola', 'Olka', 'Oleńka', 'Ala'],
  ['Aleksander', 'Olek', 'Oluś', 'Aleks'],
  ['Jakub', 'Kuba', 'Kubuś', 'Kubek'],
  ['Anna', 'Ania', 'Anka', 'Anusia', 'Aneczka', 'Ańcia'],
  ['Hanna', 'Hania', 'Hanka', 'Haneczka'],
  ['Barbara', 'Basia', 'Baśka'],
  ['Małgorzata', 'Gosia', 'Małgosia', 'Gośka'],
  ['Magdalena', 'Magda', 'Madzia'],
  ['Maria', 'Marysia', 'Maryśka', 'Mania'],
  ['Zuzanna', 'Zuzia', 'Zuza', 'Zuzka'],
  ['Julia', 'Julka', 'Julcia'],
  ['Natalia', 'Natka', 'Natalka'],
  ['Wiktoria', 'Wika', 'Wiktorka'],
  ['Weronika', 'Weronka', 'Wera', 'Nika'],
  ['Gabriela', 'Gabrysia', 'Gabi'],
  ['Emilia', 'Emilka', 'Mila'],
  ['Amelia', 'Amelka'],
  ['Helena', 'Helenka', 'Hela', 'Lena'],
  ['Alicja', 'Ala', 'Alusia'],
  ['Agnieszka', 'Aga', 'Agusia'],
  ['Joanna', 'Asia', 'Joasia', 'Aśka'],
  ['Ewa', 'Ewka', 'Ewunia'],
  ['Apolonia', 'Pola', 'Polcia'],
  ['Franciszek', 'Franek', 'Franio', 'Franuś'],
  ['Tomasz', 'Tomek', 'Tomuś'],
  ['Krzysztof', 'Krzyś', 'Krzysiek'],
  ['Bartłomiej', 'Bartek', 'Bartuś'],
  ['Wojciech', 'Wojtek', 'Wojtuś'],
  ['Maciej', 'Maciek', 'Maciuś'],
  ['Piotr', 'Piotrek', 'Piotruś'],
  ['Paweł', 'Pawełek', 'Pawcio'],
  ['Michał', 'Michałek', 'Misiek'],
  ['Mikołaj', 'Mikołajek', 'Miki'],
  ['Szymon', 'Szymek', 'Szymuś'],
  ['Tymoteusz', 'Tymek', 'Tymon'],
  ['Kacper', 'Kacperek'],
  ['Adam', 'Adaś', 'Adasiek'],
  ['Józef', 'Józek', 'Józio'],
  ['Ignacy', 'Ignaś', 'Igi'],
  ['Leon', 'Leoś'],
  ['Marcin', 'Marcinek'],
  ['Łukasz', 'Łukaszek'],
  ['Mateusz', 'Mati', 'Mateuszek'],
  ['Dominik', 'Domek', 'Dominiczek'],
  ['Kazimierz', 'Kazio', 'Kazik'],
  ['Władysław', 'Władek', 'Władzio'],
  ['Zbigniew', 'Zbyszek', 'Zbysio'],
];

const BY_FORM = new Map<string, string[]>();
for (const group of GROUPS) for (const form of group) BY_FORM.set(loose(form), [...(BY_FORM.get(loose(form)) ?? []), ...group.map(loose)]);

/** Every form a first name is said in (itself included), loosely: "Zofia" gives zofia, zosia, zoska... */
export function namesOf(firstName: string): string[] {
  const own = loose(firstName);
  return [...new Set([own, ...(BY_FORM.get(own) ?? [])])];
}
