Able, Ann             1850 2 3 4; 420 390 455; p12 1 2 1; class A; newr 1862 1870 1881; team Toronto
Baker, Bob            1790 1 4 3; 380 402 371; p12 2 1 2; class A; newr 1778 1781 1775
Chan, Cy              1720 4 1 2; 350 410 388; class B; p12 1 1 1; team Toronto
Dunn, Di              1600 3 2 1; 402 366 300; p12 2 2 2; class B
Egan, Ed              1500 6 0 0; 299 -50 -50; p12 2 1 2; off -50; class C
Ford, Flo             1450 5 0 0; 333 50 50; p12 1 0 0; class C
