B
reshape_11Jö#ö?®îZ¿bï@–æ¾eÄœ¿dÃBA