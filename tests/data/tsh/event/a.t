Adams, Al             1900 2 3; 410 430; p12 1 2; class A
Brown, Bea            1880 1 4; 380 402; p12 2 1; class A
Cole, Cal             1850 4 1; 450 399; p12 1 1; class A
Diaz, Dee             1800 3 2; 366 370; p12 2 2; class A
Evans, Eve            1750 6 7; 401 388; p12 1 2; class B
Fox, Fay              1700 5 8; 350 420; p12 2 1; class B
Gray, Gus             1650 8 5; 399 377; p12 1 1; class B
Hill, Hal             1600 7 6; 344 365; p12 2 2; class B; team Ottawa
